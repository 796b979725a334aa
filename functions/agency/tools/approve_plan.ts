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
  description:
    `Approve a plan so each step runs on its day (two steps; scope agency.plans.approve). The preview shows each step's run time, purchases and credits; approval charges nothing, steps charge as they run. scope free_steps approves only free, undoable steps. No token if the dry run failed, nothing waits (conflict), or over ${PERSON_CREDITS} credits or a person is needed (person_confirmation_required).`,
  input: z.object({ plan_id: idArg('plan'), scope: z.enum(['all', 'free_steps']).optional(), confirm_token: confirmTokenArg }).strict(),
  output: twoStepOutput(ApprovalPreview, z.object({ plan: PlanSchema })),
  run: async (call, input) => {
    const out = await runTwoStep(call, approvePlan, input);
    if (!out.confirmed) return { body: out.answer };
    await publishApproved(call.services, out.result.plan);
    return { body: out.result };
  },
});
