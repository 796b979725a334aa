import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { skipReplyAnswer } from '../../../lib/sending';
import { SkipBody, SkippedResponse } from '../../leads/sending_schema';

export const skipReplyOp = defineOperation({
  name: 'skip_reply',
  rest: 'core',
  method: 'POST',
  path: '/v1/replies/{reply_id}/skip',
  scope: 'replies.send',
  toolset: 'replies',
  write: true,
  // It only sets the reply's status; a repeat leaves it skipped (and answers 409 already_skipped).
  idempotent: true,
  summary: 'Decide not to answer an unanswered reply, with the reason: recorded in the Decision Trail, nothing is sent. A draft waiting for review is approved or rejected instead.',
  input: z.object({ reply_id: idArg('reply'), ...SkipBody.shape }).strict(),
  output: SkippedResponse,
  run: async (call, { reply_id, ...input }) => skipReplyAnswer({ deps: call.services, auth: call.auth, via: call.via }, reply_id, input),
});
