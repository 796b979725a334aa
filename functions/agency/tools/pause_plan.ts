import { z } from 'zod';
import { boolArg, idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { pausePlan } from '../../../lib/plans/pause';
import { whoOf } from '../../../lib/plans/rows';
import { PlanSchema } from '../../../lib/plans/view';

export const pausePlanOp = defineOperation({
  name: 'pause_plan',
  method: 'POST',
  path: '/v1/agency/plans/{plan_id}/pause',
  scope: 'agency.write',
  toolset: 'plans',
  studio: true,
  write: true,
  summary: 'Pause an approved plan before its next step, or release it with resume: true.',
  description:
    'Pausing stops the plan before its next step (a step already running finishes); its steps stay approved. resume: true releases a paused plan without a new approval: each step runs on its original day, or at once if that time passed while paused. Pausing a plan that is not approved, or resuming one that is not paused, is conflict with the current plan.',
  input: z.object({ plan_id: idArg('plan'), resume: boolArg().optional() }).strict(),
  output: z.object({ plan: PlanSchema }),
  run: async (call, input) => ({ body: await pausePlan(whoOf(call), input.plan_id, input.resume === true) }),
});
