import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { runTwoStep } from '../../../lib/agency/confirm';
import { confirmTokenArg, defineOperation, twoStepOutput } from '../../../lib/agency/define';
import { changePlan, MAX_STEP_CHANGES, StepChangeSchema } from '../../../lib/plans/change';
import { PlanSchema } from '../../../lib/plans/view';

const ChangePreview = z.object({
  plan: z.object({ id: z.string(), client_id: z.string(), title: z.string(), status: z.string(), revision: z.number().int() }),
  changes: z.array(z.object({ op: z.string(), step_id: z.string().nullable(), kind: z.string(), summary: z.string(), day: z.number().int().nullable() })),
  steps_after: z.array(z.object({ id: z.string().nullable(), kind: z.string(), summary: z.string(), day: z.number().int(), status: z.string(), buys: z.boolean(), credits: z.number().int() })),
  unscheduled: z.number().int().describe('scheduled steps that come off the schedule until the plan is approved again'),
  waits_for_approval: z.literal(true),
});

export const changePlanOp = defineOperation({
  name: 'change_plan',
  method: 'POST',
  path: '/v1/agency/plans/{plan_id}/change',
  scope: 'agency.write',
  toolset: 'plans',
  studio: true,
  write: true,
  twoStep: true,
  summary: 'Change the steps of an open plan (two steps); the plan then waits for approval again.',
  description: [
    'step_changes: a list of { op: add, kind, params, day? } | { op: remove, step_id } | { op: update, step_id, params?, day? } (a step keeps its kind). Only steps that have not run can be removed or updated.',
    'The first call shows the plan as it would be and a confirm_token; repeat with the token to change it. After the change the plan waits for approval (steps not run yet come off the schedule), its revision moves (earlier approve tokens are stale) and it gets a fresh dry run.',
    'A dismissed plan that is changed comes back now. Done and failed plans cannot be changed (conflict): propose a step to start a new plan.',
  ].join(' '),
  input: z
    .object({
      plan_id: idArg('plan'),
      step_changes: z.array(StepChangeSchema).min(1).max(MAX_STEP_CHANGES),
      title: z.string().trim().min(1).max(200).optional(),
      confirm_token: confirmTokenArg,
    })
    .strict(),
  output: twoStepOutput(ChangePreview, z.object({ plan: PlanSchema })),
  run: async (call, input) => {
    const out = await runTwoStep(call, changePlan, input);
    return { body: out.confirmed ? out.result : out.answer };
  },
});
