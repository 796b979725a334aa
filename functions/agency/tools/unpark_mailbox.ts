import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { confirmTokenArg, defineOperation, twoStepOutput } from '../../../lib/agency/define';
import { MailboxLifecycleSchema } from '../../../lib/infra/lifecycle_view';
import { UNPARK_MAX_BOUNCE_RATE } from '../../../lib/infra/mailbox_health';
import { UNPARK_START_CAP } from '../../../lib/infra/ramp';
import { unparkMailbox, UnparkPreviewSchema } from '../../../lib/infra/unpark';

export const unparkMailboxOp = defineOperation({
  name: 'unpark_mailbox',
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/mailboxes/unpark',
  scope: 'agency.write',
  toolset: 'infrastructure',
  studio: true,
  write: true,
  twoStep: true,
  summary: 'Let a parked mailbox send again (two steps), only when its 7-day bounce rate is under 2 % and its domain is not listed.',
  description:
    'Let a parked mailbox send again (two steps). The preview shows bounce_rate_7d, domain_listed and restarts_at; with bounce ≥ 2 %, a listed domain or a disconnect: blocked_by unpark_refused. Confirmed, it restarts ramping at 5 a day (reserve if it has no campaigns). Not parked: 409 conflict.',
  input: z.object({ client_id: idArg('client'), mailbox_id: idArg('mailbox'), confirm_token: confirmTokenArg }).strict(),
  output: twoStepOutput(UnparkPreviewSchema, z.object({ mailbox: MailboxLifecycleSchema })),
  run: async (call, input) => ({ body: await unparkMailbox(call, input) }),
});
