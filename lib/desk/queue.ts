import type { Db } from '../db/types';
import { selectQueuedDrafts } from '../sending/review_queue';
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

/**
 * The drafts waiting for review in the desk user's organization (selectQueuedDrafts, the API listing's query), one
 * page, with what the desk shows beside each draft that the API's listing does not carry (the reply's subject, the
 * queuing key's autonomy level).
 */
export async function listDeskQueue(db: Db, tenant: Tenant, page: number, pageSize = DESK_PAGE_SIZE) {
  const { rows, total } = await selectQueuedDrafts({ db, tenant, limit: pageSize, offset: (page - 1) * pageSize });
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
  return { items, total, page, hasMore: page * pageSize < total };
}
