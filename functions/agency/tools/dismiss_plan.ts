import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { dismissPlan } from '../../../lib/plans/dismiss';
import { whoOf } from '../../../lib/plans/rows';
import { PlanSchema } from '../../../lib/plans/view';

export const dismissPlanOp = defineOperation({
  name: 'dismiss_plan',
  method: 'POST',
  path: '/v1/agency/plans/{plan_id}/dismiss',
  scope: 'agency.write',
  toolset: 'plans',
  studio: true,
  write: true,
  summary: 'Dismiss an open plan for 1 to 30 days; it then returns waiting for approval with a fresh dry run.',
  description:
    'Nothing of the plan runs while it is dismissed (scheduled steps come off the schedule). After `days` days it returns as waiting_approval with a fresh dry run; dismissing again sets a new return date; change_plan brings it back at once. A done or failed plan cannot be dismissed (conflict).',
  input: z.object({ plan_id: idArg('plan'), days: z.number().int().min(1).max(30) }).strict(),
  output: z.object({ plan: PlanSchema }),
  run: async (call, input) => ({ body: await dismissPlan(whoOf(call), input.plan_id, input.days) }),
});
