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
  description: [
    'Statuses: warming (14 days) → ramping (10 a day, 20 a day from its 8th day; 5 a day in week 1 after an unpark) → active at the domain rule daily_cap; reserve = warmed and attached to no campaign; parked (auto-protect) and retired.',
    'health.failing: 7-day bounce rate ≥ 3 %, the domain listed, or disconnected. With auto_protect on, a failing ramping or active mailbox is parked at the next daily tick and a ready reserve takes over its campaigns; with it off the mailbox keeps sending and shows failing here.',
    'Filter by status; page with limit (1..200, default 50) and offset; next_offset is null on the last page. counts covers every mailbox of the client.',
  ].join(' '),
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
