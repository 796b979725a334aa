import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { auditLog } from '../../schema';
import type { Db } from '../db/types';
import { ApiError } from '../errors';
import { requireOrg } from './admin';

export type AuditQuery = { actor?: string; action?: string; limit: number; cursor?: string };

export const auditEntryView = (e: typeof auditLog.$inferSelect) => ({
  id: e.id,
  at: e.at.toISOString(),
  actor: e.actor,
  action: e.action,
  target: e.target,
  detail: e.detail,
  credits: e.credits,
});

/**
 * The organization's audit log, newest first, filtered by exact actor and action. Paged by cursor, not offset:
 * the log grows at its head while someone reads it, so an offset would show rows twice; the cursor is the id of
 * the last entry shown and the next page starts strictly after it in (at, id) order. A cursor that is not an
 * entry of this organization is a 400.
 */
export async function listAuditEntries(db: Db, orgId: string, q: AuditQuery) {
  await requireOrg(db, orgId);
  const where: SQL[] = [eq(auditLog.orgId, orgId)];
  if (q.actor !== undefined) where.push(eq(auditLog.actor, q.actor));
  if (q.action !== undefined) where.push(eq(auditLog.action, q.action));
  if (q.cursor !== undefined) {
    const [after] = await db.select({ at: auditLog.at, id: auditLog.id }).from(auditLog).where(and(eq(auditLog.orgId, orgId), eq(auditLog.id, q.cursor)));
    if (!after) throw new ApiError('validation_error', 'cursor: not an audit entry of this organization (pass the next_cursor of the previous page)');
    // Compared in the database against the row's own timestamp: a JS Date would cut its microseconds.
    where.push(sql`(${auditLog.at}, ${auditLog.id}) < (SELECT a.at, a.id FROM audit_log a WHERE a.id = ${after.id}::uuid)`);
  }
  const found = await db
    .select()
    .from(auditLog)
    .where(and(...where))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(q.limit + 1);
  const page = found.slice(0, q.limit);
  return { entries: page.map(auditEntryView), next_cursor: found.length > q.limit ? page[page.length - 1].id : null };
}
