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
  description: [
    "Answer a prospect's reply with body: the exact final text the prospect will read (nothing is added or rewritten).",
    "What happens follows this key's autonomy level: at level 2 or more it is sent at once (status sent);",
    'at level 0 or 1 it is queued for review (status queued_for_review with its reason): that is success, do not send again;',
    'a person approves it in the review queue. Sending again while a draft waits replaces the draft (replaced: true).',
    'Refusals: already_sent (409: it was sent before, nothing is sent twice), recipient_opted_out, send_rate_limit_exceeded and',
    "lead_recently_contacted (429: the key's send rate and the lead's cooldown), provider_error (502: nothing was sent).",
    'Pass original_suggestion (and edited: true) when body started from an AI suggestion, so the edit is learned from.',
  ].join(' '),
  input: z.object({ reply_id: idArg('reply'), ...SendBody.shape }).strict(),
  output: z.union([SentResponse, QueuedResponse]),
  run: async (call, { reply_id, ...input }) => sendReplyAnswer({ deps: call.services, auth: call.auth, via: call.via }, reply_id, input),
});
