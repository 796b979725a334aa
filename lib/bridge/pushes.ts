// Pushes of a client's leads to its table destination (agency spec §4 rule 4, §8: at most 10,000 rows per send).
// Creating one stores the push and one item per lead, its audit row and its job in one transaction; the job
// (push_job.ts) does the posting. GET reads its status and counts.
import { eq, sql } from 'drizzle-orm';
import { tableDestinations, tablePushes } from '../../schema';
import { writeAudit } from '../agency/audit';
import { rows } from '../db/types';
import { ApiError, notFound } from '../errors';
import type { Services } from '../services';
import { requireClient } from './clients';
import { TABLE_PUSH_JOB } from './push_job_kind';

export const MAX_PUSH_ROWS = 10_000;

export type TablePushRow = typeof tablePushes.$inferSelect;

export const pushView = (p: TablePushRow) => ({
  id: p.id,
  client_id: p.clientId,
  rows: p.rows,
  sent: p.sent,
  failed: p.failed,
  suppressed: p.suppressed,
  status: p.status,
  last_error: p.lastError,
  created_at: p.createdAt.toISOString(),
  updated_at: p.updatedAt.toISOString(),
});
export type PushView = ReturnType<typeof pushView>;

export async function createTablePush(services: Pick<Services, 'db' | 'queue'>, a: { clientId: string; leadIds?: string[]; now: Date }): Promise<PushView> {
  const client = await requireClient(services.db, a.clientId);
  const [destination] = await services.db.select({ url: tableDestinations.url }).from(tableDestinations).where(eq(tableDestinations.clientId, client.id));
  if (!destination) throw new ApiError('conflict', 'this client has no table destination yet: PUT /admin/v1/clients/{client_id}/table-destination first');
  const ids = a.leadIds ? [...new Set(a.leadIds.map((id) => id.toLowerCase()))] : null;
  if (ids && ids.length > MAX_PUSH_ROWS) throw new ApiError('validation_error', `lead_ids: ${ids.length} leads; at most ${MAX_PUSH_ROWS} per push`);

  const push = await services.db.transaction(async (tx) => {
    const [created] = await tx.insert(tablePushes).values({ orgId: client.orgId, clientId: client.id, rows: 0, createdAt: a.now, updatedAt: a.now }).returning();
    // Every lead still in the pool, or exactly the listed ones (another client's id is not found).
    const chosen = ids ? sql`id = any(${sql.param(ids)}::uuid[])` : sql`status <> 'removed'`;
    const inserted = await rows<{ lead_id: string }>(
      tx,
      sql`insert into table_push_items (push_id, lead_id)
          select ${created.id}::uuid, id from pool_leads where client_id = ${client.id}::uuid and ${chosen}
          returning lead_id`,
    );
    // Thrown inside the transaction, so a refused push leaves nothing behind.
    if (ids && inserted.length < ids.length) {
      const found = new Set(inserted.map((r) => r.lead_id));
      throw notFound(`lead ${ids.find((id) => !found.has(id))}`);
    }
    if (inserted.length > MAX_PUSH_ROWS) {
      throw new ApiError('validation_error', `the pool holds ${inserted.length} leads; at most ${MAX_PUSH_ROWS} per push: pass lead_ids`);
    }
    const status = inserted.length === 0 ? 'done' : 'queued';
    const [row] = await tx.update(tablePushes).set({ rows: inserted.length, status }).where(eq(tablePushes.id, created.id)).returning();
    await writeAudit(tx, { orgId: client.orgId, actor: 'admin', action: 'table_push.created', target: row.id, detail: { client_id: client.id, rows: row.rows, url: destination.url }, at: a.now });
    if (row.rows > 0 && services.queue.transactional) await services.queue.enqueue({ kind: TABLE_PUSH_JOB, payload: { push_id: row.id } }, { tx });
    return row;
  });
  // QStash cannot join the transaction: published after commit (the sweep picks up a push whose publish failed).
  if (push.rows > 0 && !services.queue.transactional) await services.queue.enqueue({ kind: TABLE_PUSH_JOB, payload: { push_id: push.id } });
  return pushView(push);
}

export async function getTablePush(services: Pick<Services, 'db'>, pushId: string): Promise<PushView> {
  const [push] = await services.db.select().from(tablePushes).where(eq(tablePushes.id, pushId));
  if (!push) throw notFound('table push');
  return pushView(push);
}
