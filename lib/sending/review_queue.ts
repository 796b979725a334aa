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
 * GET /v1/replies?status=queued: the drafts waiting for review, oldest first (a review queue is worked in
 * order), each with the reply it answers; the reply body is the prospect's own text, quoted thread stripped.
 * `clientId` narrows it to one client's campaigns.
 */
export async function listReviewQueue({ db, tenant, clientId, limit, offset }: { db: Db; tenant: Tenant; clientId?: string; limit: number; offset: number }) {
  const where: SQL[] = [eq(drafts.orgId, tenant.orgId), eq(replies.status, 'queued')];
  if (tenant.clientId) where.push(eq(campaigns.clientId, tenant.clientId));
  // `clientId`: only that client's drafts (already checked to be the caller's: lib/leads/reply_listing.ts).
  if (clientId) where.push(eq(campaigns.clientId, clientId));
  const filter = and(...where);
  const [page, [{ total }]] = await Promise.all([
    db
      .select({ draft: drafts, reply: replies, campaignName: campaigns.name, queuedBy: apiKeys.name })
      .from(drafts)
      .innerJoin(replies, eq(replies.id, drafts.replyId))
      .innerJoin(campaigns, eq(campaigns.id, replies.campaignId))
      .leftJoin(apiKeys, eq(apiKeys.id, drafts.keyId))
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
  const items: ReviewItem[] = page.map(({ draft, reply, campaignName, queuedBy }) => ({
    reply_id: reply.id,
    suggestion_id: draft.suggestionId,
    body: draft.body,
    queued_at: draft.queuedAt.toISOString(),
    reason: draft.reason,
    queued_by: queuedBy,
    reply: listedReplyView(reply, campaignName),
  }));
  return { items, total: Number(total) };
}
