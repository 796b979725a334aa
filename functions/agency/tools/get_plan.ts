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
  description: [
    'status: waiting_approval, approved, paused, dismissed, done or failed. Each step shows its day (offset from approval), due_at once scheduled, status (waiting, approved, scheduled, running, done, failed, undone), whether it buys something outside or can be undone, the credits it may charge, and its result or error once it ran.',
    'dry_run lists problems as sentences; a plan whose dry run failed cannot be approved. log: the newest plan-log rows (who did what, mcp:<key>, key:<key>, admin or system).',
  ].join(' '),
  input: z.object({ plan_id: idArg('plan') }).strict(),
  output: z.object({ plan: PlanSchema }),
  run: async (call, input) => {
    const db = call.services.db;
    return { body: { plan: await planView(db, await findPlan(db, call.auth.orgId, input.plan_id)) } };
  },
});
