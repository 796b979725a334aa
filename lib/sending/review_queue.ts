import { listedReplyView } from '../leads/get_reply';
import { and, asc, count, eq, type SQL } from 'drizzle-orm';
import { apiKeys, campaigns, drafts, replies } from '../../schema';
import type { Db } from '../db/types';
import type { ReplyView } from '../leads/get_reply';
import type { Tenant } from '../tenancy';

export type ReviewItem = {
  reply_id: string;
  suggestion_id: string;
  body: string;
  queued_at: string;
  reason: string;
  queued_by: string | null;
  reply: ReplyView;
};

/**
 * The drafts waiting for review, oldest queued first, ties by reply id (a review queue is worked in order), one page,
 * with the reply, its campaign's name and the queuing key (name and autonomy level; null once the key is deleted).
 * The API's listing below and the review desk (lib/desk/queue.ts) shape the same rows. `clientId` narrows it to one
 * client's campaigns (already checked to be the caller's: lib/leads/reply_listing.ts).
 */
export async function selectQueuedDrafts({ db, tenant, clientId, limit, offset }: { db: Db; tenant: Tenant; clientId?: string; limit: number; offset: number }) {
  const where: SQL[] = [eq(drafts.orgId, tenant.orgId), eq(replies.orgId, tenant.orgId), eq(replies.status, 'queued')];
  if (tenant.clientId) where.push(eq(campaigns.clientId, tenant.clientId));
  if (clientId) where.push(eq(campaigns.clientId, clientId));
  const filter = and(...where);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ draft: drafts, reply: replies, campaignName: campaigns.name, keyName: apiKeys.name, keyLevel: apiKeys.autonomyLevel })
      .from(drafts)
      .innerJoin(replies, eq(replies.id, drafts.replyId))
      .innerJoin(campaigns, eq(campaigns.id, replies.campaignId))
      .leftJoin(apiKeys, and(eq(apiKeys.id, drafts.keyId), eq(apiKeys.orgId, tenant.orgId)))
      .where(filter)
      .orderBy(asc(drafts.queuedAt), asc(drafts.replyId))
      .limit(limit)
      .offset(offset),
    db
      .select({ total: count() })
      .from(drafts)
      .innerJoin(replies, eq(replies.id, drafts.replyId))
      .innerJoin(campaigns, eq(campaigns.id, replies.campaignId))
      .where(filter),
  ]);
  return { rows, total: Number(total) };
}

/**
 * GET /v1/replies?status=queued: the drafts waiting for review (selectQueuedDrafts), each with the reply it answers;
 * the reply body is the prospect's own text, quoted thread stripped.
 */
export async function listReviewQueue(args: { db: Db; tenant: Tenant; clientId?: string; limit: number; offset: number }) {
  const { rows, total } = await selectQueuedDrafts(args);
  const items: ReviewItem[] = rows.map(({ draft, reply, campaignName, keyName }) => ({
    reply_id: reply.id,
    suggestion_id: draft.suggestionId,
    body: draft.body,
    queued_at: draft.queuedAt.toISOString(),
    reason: draft.reason,
    queued_by: keyName,
    reply: listedReplyView(reply, campaignName),
  }));
  return { items, total };
}
