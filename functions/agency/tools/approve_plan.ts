import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { runTwoStep } from '../../../lib/agency/confirm';
import { confirmTokenArg, defineOperation, twoStepOutput } from '../../../lib/agency/define';
import { approvePlan, PERSON_CREDITS, publishApproved } from '../../../lib/plans/approve';
import { DryRunSchema, PlanSchema } from '../../../lib/plans/view';

const ApprovalPreview = z.object({
  plan: z.object({ id: z.string(), client_id: z.string(), title: z.string(), status: z.string(), revision: z.number().int() }),
  scope: z.enum(['all', 'free_steps']),
  steps: z.array(
    z.object({
      id: z.string(),
      position: z.number().int(),
      kind: z.string(),
      summary: z.string(),
      day: z.number().int(),
      runs_at: z.string().nullable().describe('when the step will run if approved now'),
      buys: z.boolean(),
      undoable: z.boolean(),
      credits: z.number().int(),
      approved: z.boolean().describe('part of this approval'),
      keeps_waiting: z.string().nullable().describe('why a waiting step is left out (scope free_steps)'),
    }),
  ),
  credits_total: z.number().int().describe('credits the approved steps may charge as they run'),
  buys: z.number().int().describe('approved steps that buy something outside'),
  dry_run: DryRunSchema,
  needs_person: z.string().nullable(),
});

export const approvePlanOp = defineOperation({
  name: 'approve_plan',
  method: 'POST',
  path: '/v1/agency/plans/{plan_id}/approve',
  scope: 'agency.plans.approve',
  toolset: 'plans',
  studio: true,
  write: true,
  twoStep: true,
  summary: 'Approve a plan so each step runs on its day (two steps; needs the agency.plans.approve scope).',
  description: [
    'The first call shows every step, when it would run, what buys and what it may charge, the fresh dry run, and a confirm_token; repeat with the token to approve. Approval itself charges nothing (credits is 0); steps charge as they run.',
    'scope all (default) approves every waiting step; scope free_steps only the steps that buy nothing and can be undone (purchases keep waiting; approve them later with scope all, and they keep their days).',
    `No token when the dry run failed (blocked_by dry_run_failed), when there is nothing to approve (conflict), or when the approved steps may charge more than ${PERSON_CREDITS} credits or a step needs a person (blocked_by person_confirmation_required: a person approves in the app).`,
    'Any change to the plan after the preview (a new step, change_plan, dismiss) makes the token stale.',
  ].join(' '),
  input: z.object({ plan_id: idArg('plan'), scope: z.enum(['all', 'free_steps']).optional(), confirm_token: confirmTokenArg }).strict(),
  output: twoStepOutput(ApprovalPreview, z.object({ plan: PlanSchema })),
  run: async (call, input) => {
    const out = await runTwoStep(call, approvePlan, input);
    if (!out.confirmed) return { body: out.answer };
    await publishApproved(call.services, out.result.plan);
    return { body: out.result };
  },
});
