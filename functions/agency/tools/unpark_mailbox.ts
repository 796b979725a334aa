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
  description: [
    `Without confirm_token: a preview with the mailbox, its bounce_rate_7d and domain_listed, whether it is allowed and restarts_at (${UNPARK_START_CAP} sends a day); a refused one (bounce rate ≥ ${UNPARK_MAX_BOUNCE_RATE * 100} %, domain listed, or disconnected) has confirm_token null and blocked_by unpark_refused.`,
    'A parked mailbox sends nothing, so its rate falls within a week of parking. With the token: it restarts at week 1 of its ramp at 5 a day (20 a day from its 8th day, then active) — ramping if it still has campaigns, else a reserve (auto-protect moved its campaigns to the reserve that replaced it).',
    'A mailbox that is not parked: 409 conflict.',
  ].join(' '),
  input: z.object({ client_id: idArg('client'), mailbox_id: idArg('mailbox'), confirm_token: confirmTokenArg }).strict(),
  output: twoStepOutput(UnparkPreviewSchema, z.object({ mailbox: MailboxLifecycleSchema })),
  run: async (call, input) => ({ body: await unparkMailbox(call, input) }),
});
