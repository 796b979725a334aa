import { z } from 'zod';
import { idArg, intArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { listPlans } from '../../../lib/plans/list';
import { PLAN_STATUSES, PlanSummarySchema } from '../../../lib/plans/view';

export const listPlansOp = defineOperation({
  name: 'list_plans',
  method: 'GET',
  path: '/v1/agency/plans',
  scope: 'agency.read',
  toolset: 'plans',
  studio: true,
  write: false,
  summary: "The organization's plans, newest first (optionally one client's, or one status).",
  description: 'Each plan without its steps (get_plan shows them), with steps (how many) and steps_done. Page with limit (1..100, default 50) and offset; next_offset is null on the last page.',
  input: z
    .object({
      client_id: idArg('client').optional(),
      status: z.enum(PLAN_STATUSES).optional(),
      limit: intArg(1, 100).optional(),
      offset: intArg(0, 1_000_000).optional(),
    })
    .strict(),
  output: z.object({
    plans: z.array(PlanSummarySchema.extend({ steps: z.number().int(), steps_done: z.number().int() })),
    next_offset: z.number().int().nullable(),
  }),
  run: async (call, input) => ({ body: await listPlans(call.services.db, call.auth.orgId, input) }),
});
