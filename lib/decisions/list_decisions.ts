import { and, desc, eq, type SQL } from 'drizzle-orm';
import { decisions } from '../../schema';
import type { Db } from '../db/types';

export async function listDecisions({ db, orgId, replyId, leadId, limit = 200 }: { db: Db; orgId: string; replyId?: string; leadId?: string; limit?: number }) {
  const where: SQL[] = [eq(decisions.orgId, orgId)];
  if (replyId) where.push(eq(decisions.replyId, replyId));
  if (leadId) where.push(eq(decisions.leadId, leadId));
  const found = await db.select().from(decisions).where(and(...where)).orderBy(desc(decisions.at), desc(decisions.id)).limit(limit);
  return found.map((d) => ({ id: d.id, at: d.at.toISOString(), actor: d.actor, action: d.action, reply_id: d.replyId, lead_id: d.leadId, detail: d.detail }));
}
