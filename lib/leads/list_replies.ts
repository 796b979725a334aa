import { listedReplyView } from './get_reply';
import { and, count, desc, eq, gt, type SQL } from 'drizzle-orm';
import { campaigns, replies } from '../../schema';
import type { Db } from '../db/types';
import type { Tenant } from '../tenancy';
import type { ReplyView } from './get_reply';

/** What became of a prospect's reply: not answered yet, a draft waiting for review, answered, or skipped. */
export const REPLY_STATUSES = ['unanswered', 'queued', 'sent', 'skipped'] as const;
export type ReplyStatus = (typeof REPLY_STATUSES)[number];

export type ReplyListItem = ReplyView & { lead_id: string; campaign_id: string; status: ReplyStatus };

export type ListRepliesInput = {
  status?: ReplyStatus;
  campaignId?: string;
  /** Only replies to campaigns of this client (already checked to be the caller's: ./reply_listing.ts). */
  clientId?: string;
  /** Only replies received after this time. */
  since?: Date;
  limit: number;
  offset: number;
};

/**
 * GET /v1/replies: the tenant's replies, newest first (`received_at`, then id, so pages are stable), with what became
 * of each. The body is the prospect's own text with the quoted thread stripped, as in the review queue;
 * `GET /v1/replies/{id}` has the message as received. A client-locked key sees its client's campaigns only.
 */
export async function listReplies({ db, tenant, input }: { db: Db; tenant: Tenant; input: ListRepliesInput }) {
  const where: SQL[] = [eq(replies.orgId, tenant.orgId)];
  if (tenant.clientId) where.push(eq(campaigns.clientId, tenant.clientId));
  if (input.status) where.push(eq(replies.status, input.status));
  if (input.campaignId) where.push(eq(replies.campaignId, input.campaignId));
  if (input.clientId) where.push(eq(campaigns.clientId, input.clientId));
  if (input.since) where.push(gt(replies.receivedAt, input.since));
  const filter = and(...where);
  const [page, [{ total }]] = await Promise.all([
    db
      .select({ reply: replies, campaignName: campaigns.name })
      .from(replies)
      .innerJoin(campaigns, eq(campaigns.id, replies.campaignId))
      .where(filter)
      .orderBy(desc(replies.receivedAt), desc(replies.id))
      .limit(input.limit)
      .offset(input.offset),
    db.select({ total: count() }).from(replies).innerJoin(campaigns, eq(campaigns.id, replies.campaignId)).where(filter),
  ]);
  const items: ReplyListItem[] = page.map(({ reply, campaignName }) => ({
    ...listedReplyView(reply, campaignName),
    lead_id: reply.leadId,
    campaign_id: reply.campaignId,
    status: reply.status,
  }));
  return { items, total: Number(total) };
}
