// A batch as every agency tool shows it, and the reads other parts of the engine share (writing, campaigns, today).
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { batches, batchLeads, type BatchStatus } from '../../schema';
import type { Db } from '../db/types';

export type BatchRow = typeof batches.$inferSelect;

/**
 * A client has at most one open batch: the one being composed, written, reviewed or approved and not yet pushed.
 * `pushing`, `pushed` and `skipped` are closed, so the next batch can be allocated while one is being pushed.
 */
export const OPEN_BATCH_STATUSES = ['allocated', 'writing', 'written', 'approved'] as const satisfies readonly BatchStatus[];
export const BATCH_STATUSES = ['allocated', 'writing', 'written', 'approved', 'pushing', 'pushed', 'skipped'] as const satisfies readonly BatchStatus[];

export const BatchSchema = z.object({
  id: z.string(),
  client_id: z.string(),
  status: z.enum(BATCH_STATUSES),
  segment_id: z.string().nullable(),
  filter: z.record(z.string(), z.unknown()),
  size: z.number().int().describe('leads asked for'),
  leads: z.number().int(),
  written: z.number().int(),
  review: z.object({ pending: z.number().int(), approved: z.number().int(), rejected: z.number().int() }),
  sequence_version: z.number().int().nullable(),
  revision: z.number().int().describe('moves on every change'),
  approved_by: z.string().nullable(),
  approved_at: z.string().nullable(),
  created_by: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type BatchView = z.infer<typeof BatchSchema>;

export type BatchCounts = { leads: number; written: number; pending: number; approved: number; rejected: number };

/** The review counts of a batch in one statement. */
export async function batchCounts(db: Db, batchId: string): Promise<BatchCounts> {
  const [c] = await db
    .select({
      leads: sql<number>`count(*)::int`,
      written: sql<number>`count(${batchLeads.mails})::int`,
      pending: sql<number>`(count(*) filter (where ${batchLeads.review} = 'pending'))::int`,
      approved: sql<number>`(count(*) filter (where ${batchLeads.review} = 'approved'))::int`,
      rejected: sql<number>`(count(*) filter (where ${batchLeads.review} = 'rejected'))::int`,
    })
    .from(batchLeads)
    .where(eq(batchLeads.batchId, batchId));
  return { leads: Number(c.leads), written: Number(c.written), pending: Number(c.pending), approved: Number(c.approved), rejected: Number(c.rejected) };
}

export function batchViewOf(row: BatchRow, c: BatchCounts): BatchView {
  return {
    id: row.id,
    client_id: row.clientId,
    status: row.status,
    segment_id: row.segmentId,
    filter: row.filter,
    size: row.size,
    leads: c.leads,
    written: c.written,
    review: { pending: c.pending, approved: c.approved, rejected: c.rejected },
    sequence_version: row.sequenceVersion,
    revision: row.revision,
    approved_by: row.approvedBy,
    approved_at: row.approvedAt?.toISOString() ?? null,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The batch with its counts, read now (inside a transaction: as that transaction sees it). */
export async function batchView(db: Db, row: BatchRow): Promise<BatchView> {
  return batchViewOf(row, await batchCounts(db, row.id));
}

/**
 * The client's open batch or null. `lock`: under a row lock, for a change that decides on its status (a confirm
 * reads it again inside its transaction, so two confirms of one client's batch take turns).
 */
export async function openBatch(db: Db, orgId: string, clientId: string, lock = false): Promise<BatchRow | null> {
  const q = db
    .select()
    .from(batches)
    .where(and(eq(batches.orgId, orgId), eq(batches.clientId, clientId), inArray(batches.status, [...OPEN_BATCH_STATUSES])))
    .orderBy(desc(batches.createdAt), desc(batches.id))
    .limit(1);
  const [row] = lock ? await q.for('update') : await q;
  return row ?? null;
}

/** The client's newest batch whatever its status, or null: what batch_status shows when none is open. */
export async function latestBatch(db: Db, orgId: string, clientId: string): Promise<BatchRow | null> {
  const [row] = await db
    .select()
    .from(batches)
    .where(and(eq(batches.orgId, orgId), eq(batches.clientId, clientId)))
    .orderBy(desc(batches.createdAt), desc(batches.id))
    .limit(1);
  return row ?? null;
}

/** Every confirmed change of a batch moves its revision, so a confirm token issued before it is stale. */
export async function bumpRevision(tx: Db, batchId: string, now: Date, set: Partial<typeof batches.$inferInsert> = {}): Promise<BatchRow> {
  const [row] = await tx
    .update(batches)
    .set({ ...set, revision: sql`${batches.revision} + 1`, updatedAt: now })
    .where(eq(batches.id, batchId))
    .returning();
  return row;
}
