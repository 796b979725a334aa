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
  description:
    'Change an open plan\'s steps (two steps): step_changes of { op: add, kind, params, day? }, { op: remove, step_id }, { op: update, step_id, params?, day? }; only steps not run yet. The plan then waits for approval again with a fresh dry run (earlier approve tokens go stale). Done and failed plans: conflict.',
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
