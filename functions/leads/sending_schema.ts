import { z } from '@hono/zod-openapi';
import { PaginationMeta } from '../../lib/http/openapi';
import { Reply } from './schema';

// Request and response shapes of governed sending (core §3/§4, operator §4).

const text = (max: number) => z.string().max(max).refine((s) => s.trim().length > 0, { message: 'must not be empty' });

export const SendBody = z
  .strictObject({
    body: text(40_000).openapi({ description: 'the reply to send, as the prospect will read it' }),
    original_suggestion: z.string().max(40_000).optional().openapi({ description: 'the AI suggestion this body started from' }),
    edited: z.boolean().default(false).openapi({ description: 'true when body is an edited original_suggestion: the edit distance is logged and learned from' }),
  })
  .openapi('SendReply');

export const SentResponse = z
  .object({
    status: z.literal('sent'),
    reply_id: z.uuid(),
    sent: z.literal(true),
    to_email: z.string(),
    learned: z.boolean(),
    sent_at: z.string(),
  })
  .openapi('ReplySent');

export const QueuedResponse = z
  .object({
    status: z.literal('queued_for_review'),
    reply_id: z.uuid(),
    reason: z.enum(['no_active_autonomy_grant', 'review_required_at_autonomy_level_1', 'draft_pending_review']),
    suggestion_id: z.string(),
    replaced: z.boolean().openapi({ description: 'true when this send replaced the pending draft (same suggestion_id, latest body wins)' }),
  })
  .openapi('ReplyQueued', { description: 'Success with pending review: do not retry.' });

const person = text(200);
export const ApproveBody = z.strictObject({ approver: person }).openapi('ApproveReply');
export const RejectBody = z.strictObject({ approver: person, reason: text(2_000) }).openapi('RejectReply');
export const SkipBody = z.strictObject({ reason: text(2_000) }).openapi('SkipReply');

export const ApprovedResponse = SentResponse.extend({ suggestion_id: z.string(), approver: z.string() }).openapi('ReplyApproved');
export const RejectedResponse = z
  .object({ status: z.literal('rejected'), reply_id: z.uuid(), suggestion_id: z.string(), approver: z.string(), reason: z.string() })
  .openapi('ReplyRejected');
export const SkippedResponse = z.object({ status: z.literal('skipped'), reply_id: z.uuid(), reason: z.string() }).openapi('ReplySkipped');

export const ReviewItem = z
  .object({
    reply_id: z.uuid(),
    suggestion_id: z.string(),
    body: z.string().openapi({ description: 'the pending draft' }),
    queued_at: z.string(),
    reason: z.string(),
    queued_by: z.string().nullable().openapi({ description: 'name of the key that queued (or last replaced) the draft' }),
    reply: Reply, // the prospect reply this draft answers; its body has the quoted thread stripped
  })
  .openapi('ReviewItem');

export const ReviewQueueResponse = z.object({ replies: z.array(ReviewItem), ...PaginationMeta }).openapi('ReviewQueue');

export const IdempotencyHeader = z.object({
  'idempotency-key': z.string().optional().openapi({ param: { name: 'idempotency-key', in: 'header' }, description: 'a retry with the same key returns the first answer and sends nothing new' }),
});
