import { and, desc, eq, type SQL } from 'drizzle-orm';
import { outboxMessages } from '../../schema';
import type { Db } from '../db/types';
import type { MailProvider } from './port';

/** The embedded default: the message becomes an `outbox_messages` row in the send's own transaction. */
export const outboxProvider: MailProvider = {
  kind: 'outbox',
  transactional: true,
  async send(tx, m, now) {
    await tx.insert(outboxMessages).values({ orgId: m.orgId, replyId: m.replyId, toEmail: m.toEmail, body: m.body, sentAt: now });
    return { ok: true };
  },
};

/** What the outbox provider "sent" for an organization, newest first (admin API). */
export async function listOutbox({ db, orgId, replyId, limit = 200 }: { db: Db; orgId: string; replyId?: string; limit?: number }) {
  const where: SQL[] = [eq(outboxMessages.orgId, orgId)];
  if (replyId) where.push(eq(outboxMessages.replyId, replyId));
  const found = await db
    .select()
    .from(outboxMessages)
    .where(and(...where))
    .orderBy(desc(outboxMessages.sentAt), desc(outboxMessages.id))
    .limit(limit);
  return found.map((m) => ({ id: m.id, reply_id: m.replyId, to_email: m.toEmail, body: m.body, sent_at: m.sentAt.toISOString() }));
}
