import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { listRepliesAnswer } from '../../../lib/leads/reply_listing';
import { ListRepliesQuery, ReplyListResponse } from '../../leads/schema';
import { ReviewQueueResponse } from '../../leads/sending_schema';

// The core GET /v1/replies with the two listings that are "pending": the review queue (the default) and the
// replies nobody answered yet. The status decides the scope as on the route: the queue needs replies.approve (this
// tool's scope), `unanswered` is a read of replies and needs leads.read as well (refused as REST refuses it).
export const listPendingRepliesOp = defineOperation({
  name: 'list_pending_replies',
  rest: 'core',
  method: 'GET',
  path: '/v1/replies',
  scope: 'replies.approve',
  toolset: 'replies',
  write: false,
  summary: 'Replies waiting on the agency: the review queue (drafts waiting for approval), or with status unanswered the replies nobody answered yet.',
  description:
    'Replies waiting on the agency. status in_review (default): the review queue\'s drafts with the reply they answer, oldest first (approve_reply, reject_reply). status unanswered: replies nobody answered yet, newest first (needs leads.read; send_reply, skip_reply). client_id narrows; paged with limit/offset, has_more.',
  input: z
    .object({
      status: z.enum(['in_review', 'unanswered']).default('in_review').describe('in_review (default): the review queue; unanswered: replies not answered yet'),
      client_id: idArg('client').optional(),
      limit: ListRepliesQuery.shape.limit,
      offset: ListRepliesQuery.shape.offset,
    })
    .strict(),
  output: z.union([ReviewQueueResponse, ReplyListResponse]),
  run: async (call, input) => ({ body: await listRepliesAnswer({ db: call.services.db, auth: call.auth, query: input }) }),
});
