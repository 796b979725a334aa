import { and, asc, eq } from 'drizzle-orm';
import { threadMessages } from '../../schema';
import type { Db } from '../db/types';

/** A lead's whole conversation in time order (replies in, messages out), as the portal and the desk show it. */
export function threadOfLead(db: Db, orgId: string, leadId: string) {
  return db
    .select({ at: threadMessages.at, role: threadMessages.role, content: threadMessages.content, replyId: threadMessages.replyId })
    .from(threadMessages)
    .where(and(eq(threadMessages.orgId, orgId), eq(threadMessages.leadId, leadId)))
    .orderBy(asc(threadMessages.at), asc(threadMessages.id));
}
