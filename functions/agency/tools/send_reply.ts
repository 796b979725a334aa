import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { sendReplyAnswer } from '../../../lib/sending';
import { QueuedResponse, SendBody, SentResponse } from '../../leads/sending_schema';

// The core POST /v1/replies/{id}/send: the same governed send (autonomy level, review queue, send limits, cooldown,
// Decision Trail with the key). No idempotency_key argument: a repeat can never send twice, because the verb decides
// under the reply's row lock and a sent reply answers 409 already_sent (see the README).
export const sendReplyOp = defineOperation({
  name: 'send_reply',
  rest: 'core',
  method: 'POST',
  path: '/v1/replies/{reply_id}/send',
  scope: 'replies.send',
  toolset: 'replies',
  write: true,
  openWorld: true,
  summary: "Answer a prospect's reply with body, the exact final text the prospect will read, under this key's autonomy level: sent at once, or queued for a person's review.",
  description:
    'Answer a prospect\'s reply with body, the exact text they will read. At autonomy level ≥ 2 it is sent now; at 0-1 it is queued_for_review: success, do not resend (a resend replaces the draft). Refusals: already_sent, recipient_opted_out, send_rate_limit_exceeded, lead_recently_contacted, provider_error. Pass original_suggestion and edited when starting from a suggestion.',
  input: z.object({ reply_id: idArg('reply'), ...SendBody.shape }).strict(),
  output: z.union([SentResponse, QueuedResponse]),
  run: async (call, { reply_id, ...input }) => sendReplyAnswer({ deps: call.services, auth: call.auth, via: call.via }, reply_id, input),
});
