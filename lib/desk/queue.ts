import { and, asc, count, eq } from 'drizzle-orm';
import { apiKeys, campaigns, drafts, replies } from '../../schema';
import type { Db } from '../db/types';
import { parsePageNumber } from '../web/paging';
import type { Tenant } from '../tenancy';

export const DESK_PAGE_SIZE = 20;

/** The key that queued (or last replaced) a draft: its name and autonomy level; null once the key is deleted. */
export type QueuingKey = { name: string; autonomyLevel: number } | null;

export type DeskQueueItem = {
  replyId: string;
  suggestionId: string;
  draftBody: string;
  reason: string;
  queuedAt: Date;
  key: QueuingKey;
  campaignName: string;
  reply: { fromEmail: string; fromName: string | null; subject: string | null; text: string; receivedAt: Date };
};

/** `?page=N` of the queue: the pages' one rule (lib/web/paging.ts). */
export const parseQueuePage = parsePageNumber;

/**
 * The drafts waiting for review in the desk user's organization, in the order of listReviewQueue (oldest queued
 * first, ties by reply id: a queue is worked in order), one page, with what the desk shows beside each draft that the
 * API's listing does not carry (the reply's subject, the queuing key's autonomy level).
 */
export async function listDeskQueue(db: Db, tenant: Tenant, page: number, pageSize = DESK_PAGE_SIZE) {
  const filter = and(eq(drafts.orgId, tenant.orgId), eq(replies.orgId, tenant.orgId), eq(replies.status, 'queued'));
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ draft: drafts, reply: replies, campaignName: campaigns.name, keyName: apiKeys.name, keyLevel: apiKeys.autonomyLevel })
      .from(drafts)
      .innerJoin(replies, eq(replies.id, drafts.replyId))
      .innerJoin(campaigns, eq(campaigns.id, replies.campaignId))
      .leftJoin(apiKeys, and(eq(apiKeys.id, drafts.keyId), eq(apiKeys.orgId, tenant.orgId)))
      .where(filter)
      .orderBy(asc(drafts.queuedAt), asc(drafts.replyId))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(drafts).innerJoin(replies, eq(replies.id, drafts.replyId)).where(filter),
  ]);
  const items = rows.map(
    ({ draft, reply, campaignName, keyName, keyLevel }): DeskQueueItem => ({
      replyId: reply.id,
      suggestionId: draft.suggestionId,
      draftBody: draft.body,
      reason: draft.reason,
      queuedAt: draft.queuedAt,
      key: keyName !== null && keyLevel !== null ? { name: keyName, autonomyLevel: keyLevel } : null,
      campaignName,
      reply: { fromEmail: reply.fromEmail, fromName: reply.fromName, subject: reply.subject, text: reply.bodyStripped, receivedAt: reply.receivedAt },
    }),
  );
  const totalCount = Number(total);
  return { items, total: totalCount, page, hasMore: page * pageSize < totalCount };
}
