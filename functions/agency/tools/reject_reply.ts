import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { rejectReplyAnswer } from '../../../lib/sending';
import { RejectBody, RejectedResponse } from '../../leads/sending_schema';

export const rejectReplyOp = defineOperation({
  name: 'reject_reply',
  rest: 'core',
  method: 'POST',
  path: '/v1/replies/{reply_id}/reject',
  scope: 'replies.approve',
  toolset: 'replies',
  write: true,
  summary: 'Reject the draft waiting in the review queue for this reply: the draft is removed, nothing is sent, the reply is unanswered again.',
  input: z.object({ reply_id: idArg('reply'), ...RejectBody.shape }).strict(),
  output: RejectedResponse,
  run: async (call, { reply_id, ...input }) => rejectReplyAnswer({ deps: call.services, auth: call.auth, via: call.via }, reply_id, input),
});
