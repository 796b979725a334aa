import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { attachMailboxes } from '../../../lib/infra/attach';
import { MailboxLifecycleSchema } from '../../../lib/infra/lifecycle_view';

export const attachMailboxesOp = defineOperation({
  name: 'attach_mailboxes',
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/mailboxes/attach',
  scope: 'agency.write',
  toolset: 'infrastructure',
  studio: true,
  write: true,
  idempotent: true,
  summary: "Attach the client's mailboxes to the client's campaigns: a reserve starts ramping today, a warming mailbox ramps once warm.",
  description:
    'Attach the client\'s mailbox_ids (1..100) to its campaign_ids (1..20): every pair; existing pairs stay (attached counts new ones). A reserve starts ramping (10 a day, 5 after an unpark); warming ones stay warming. Parked or retired: 409 conflict. Answers the mailboxes as get_mailbox_lifecycle shows them.',
  input: z
    .object({
      client_id: idArg('client'),
      mailbox_ids: z.array(idArg('mailbox')).min(1).max(100),
      campaign_ids: z.array(idArg('campaign')).min(1).max(20),
    })
    .strict(),
  output: z.object({ mailboxes: z.array(MailboxLifecycleSchema), attached: z.number().int() }),
  run: async (call, input) => ({ body: await attachMailboxes(call, input) }),
});
