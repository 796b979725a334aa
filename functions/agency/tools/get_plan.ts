import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { findPlan } from '../../../lib/plans/rows';
import { PlanSchema, planView } from '../../../lib/plans/view';

export const getPlanOp = defineOperation({
  name: 'get_plan',
  method: 'GET',
  path: '/v1/agency/plans/{plan_id}',
  scope: 'agency.read',
  toolset: 'plans',
  studio: true,
  write: false,
  summary: 'A plan with its steps, its latest dry run and its log.',
  description:
    'A plan with its steps, latest dry run and log. Each step: day (after approval), due_at, status, whether it buys or can be undone, credits it may charge, result or error. dry_run lists problems; a failed one blocks approval. log: newest plan-log rows with their actor.',
  input: z.object({ plan_id: idArg('plan') }).strict(),
  output: z.object({ plan: PlanSchema }),
  run: async (call, input) => {
    const db = call.services.db;
    return { body: { plan: await planView(db, await findPlan(db, call.auth.orgId, input.plan_id)) } };
  },
});
