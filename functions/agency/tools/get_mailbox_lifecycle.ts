import { z } from 'zod';
import { idArg, intArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { getMailboxLifecycle, LifecycleSchema, MAILBOX_STATUSES } from '../../../lib/infra/lifecycle_view';

export const getMailboxLifecycleOp = defineOperation({
  name: 'get_mailbox_lifecycle',
  method: 'GET',
  path: '/v1/agency/clients/{client_id}/mailbox-lifecycle',
  scope: 'agency.read',
  toolset: 'infrastructure',
  studio: true,
  write: false,
  summary: "Each of the client's mailboxes with its lifecycle status, day in that status, today's send cap, campaigns and 7-day health.",
  description:
    'The client\'s mailboxes with status (warming 14 days → ramping 10/day, 20 from day 8 → active at daily_cap; reserve, parked, retired), day in status, today\'s cap, campaigns and 7-day health (failing: bounce ≥ 3 %, listed domain or disconnected). Filter by status; paged with limit/offset; counts covers all.',
  input: z
    .object({
      client_id: idArg('client'),
      status: z.enum(MAILBOX_STATUSES).optional(),
      limit: intArg(1, 200).optional(),
      offset: intArg(0, 1_000_000).optional(),
    })
    .strict(),
  output: LifecycleSchema,
  run: async (call, input) => ({ body: await getMailboxLifecycle(call.services.db, call.auth.orgId, input, call.now) }),
});
