// One writing round of a client's open batch: which leads it writes, what it costs, where the rewrite limit stands,
// and the write itself (a handful of statements whatever the batch size). start_writing's confirm and the
// rewrite_batch plan step both write through writeRound, inside their own transaction.
import { and, asc, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import { batchLeads, batches, batchWrites } from '../../schema';
import type { ClientRow } from '../agency/clients/view';
import type { Db } from '../db/types';
import { ApiError, notFound } from '../errors';
import { currentVersion, type SequenceVersionRow } from '../sequences/view';
import { writerContext, writerLeads } from './context';
import type { BatchWriter, WriterContext } from './port';

/** Spec §8: rewrites of one batch within 14 days may cost at most 2 times writing it once. */
export const REWRITE_WINDOW_DAYS = 14;
export const REWRITE_LIMIT_FACTOR = 2;
const DAY_MS = 86_400_000;

export type BatchRow = typeof batches.$inferSelect;
export type BatchLeadRow = typeof batchLeads.$inferSelect;

/** Statuses a batch may be (re)written in: before approval. `writing` only lasts inside a round's transaction. */
const WRITABLE = ['allocated', 'writing', 'written'] as const;

export type RoundPlan = {
  batch: BatchRow;
  sequence: SequenceVersionRow;
  leadsInBatch: number;
  targets: BatchLeadRow[];
  firstWrites: number;
  rewrites: number;
  rewrite: { windowDays: number; limit: number; used: number; after: number; exceeded: boolean };
};

/** The client's newest batch that is not done with (approved counts: it is open but no longer writable). */
async function openBatchOf(db: Db, orgId: string, clientId: string): Promise<BatchRow> {
  const [row] = await db
    .select()
    .from(batches)
    .where(and(eq(batches.orgId, orgId), eq(batches.clientId, clientId), inArray(batches.status, [...WRITABLE, 'approved'])))
    .orderBy(desc(batches.createdAt), desc(batches.id))
    .limit(1)
    .for('update');
  if (!row) throw new ApiError('conflict', 'the client has no open batch to write: compose one with allocate_batch first');
  if (row.status === 'approved') throw new ApiError('conflict', 'the open batch is approved: its mails are final; skip it (skip_batch) to write new ones');
  return row;
}

/** Credits of the batch's first-writing rounds (kind write): the cost of writing it once. */
async function firstWriteCredits(db: Db, batchId: string): Promise<number> {
  const [r] = await db
    .select({ credits: sql<number>`coalesce(sum(${batchWrites.credits}), 0)::int` })
    .from(batchWrites)
    .where(and(eq(batchWrites.batchId, batchId), eq(batchWrites.kind, 'write')));
  return Number(r?.credits ?? 0);
}

export async function rewriteCreditsUsed(db: Db, orgId: string, batchId: string, now: Date): Promise<number> {
  const [row] = await db
    .select({ used: sql<number>`coalesce(sum(${batchWrites.credits}), 0)::int` })
    .from(batchWrites)
    .where(and(eq(batchWrites.orgId, orgId), eq(batchWrites.batchId, batchId), eq(batchWrites.kind, 'rewrite'), gt(batchWrites.at, new Date(now.getTime() - REWRITE_WINDOW_DAYS * DAY_MS))));
  return Number(row?.used ?? 0);
}

/**
 * Which leads a round writes: `leadIds` (each must be in the batch), else every lead not rejected in review.
 * Reads the batch under a row lock, so two confirms of one batch take turns and the second sees the new revision.
 */
export async function planRound(db: Db, orgId: string, clientId: string, leadIds: readonly string[] | undefined, now: Date, batchId?: string): Promise<RoundPlan> {
  const batch = await openBatchOf(db, orgId, clientId);
  if (batchId && batch.id !== batchId) throw new ApiError('conflict', `batch ${batchId} is no longer the client's open batch (${batch.id} is)`);
  const sequence = await currentVersion(db, orgId, clientId);
  if (!sequence || sequence.steps.length === 0) throw new ApiError('conflict', 'the client has no sequence to write from: save one with update_sequence first');
  const all = await db
    .select()
    .from(batchLeads)
    .where(and(eq(batchLeads.orgId, orgId), eq(batchLeads.batchId, batch.id)))
    .orderBy(asc(batchLeads.position), asc(batchLeads.poolLeadId));
  let targets: BatchLeadRow[];
  if (leadIds) {
    const byId = new Map(all.map((l) => [l.poolLeadId, l]));
    const unknown = leadIds.filter((id) => !byId.has(id));
    if (unknown.length) throw notFound(`lead ${unknown.join(', ')} in the open batch`);
    const wanted = new Set(leadIds);
    targets = all.filter((l) => wanted.has(l.poolLeadId));
  } else {
    targets = all.filter((l) => l.review !== 'rejected');
  }
  if (targets.length === 0) throw new ApiError('conflict', 'nothing to write: every lead of the open batch was rejected in review');
  const rewrites = targets.filter((l) => l.writes > 0).length;
  const used = await rewriteCreditsUsed(db, orgId, batch.id, now);
  // "2 × writing it once": what the first writing round(s) cost, or, before any, the leads it would write.
  const once = await firstWriteCredits(db, batch.id);
  const limit = REWRITE_LIMIT_FACTOR * (once > 0 ? once : all.filter((l) => l.review !== 'rejected').length);
  return {
    batch,
    sequence,
    leadsInBatch: all.length,
    targets,
    firstWrites: targets.length - rewrites,
    rewrites,
    rewrite: { windowDays: REWRITE_WINDOW_DAYS, limit, used, after: used + rewrites, exceeded: used + rewrites > limit },
  };
}

export type RoundSummary = { batch_id: string; leads: number; first_writes: number; rewrites: number; credits: number; sequence_version: number; rules_used: string[]; revision: number };

/**
 * Writes every target lead and records the round: the leads' mails (review back to pending), the batch written
 * with a new revision, and one batch_writes row per kind. Runs in the caller's transaction; the caller charges.
 */
export async function writeRound(
  tx: Db,
  a: { orgId: string; client: ClientRow; plan: RoundPlan; writer: BatchWriter; confirmedBy: string; planStepId: string | null; now: Date; context?: WriterContext },
): Promise<RoundSummary> {
  const { orgId, client, plan, now } = a;
  const ctx = a.context ?? (await writerContext(tx, orgId, client, plan.sequence));
  const leads = await writerLeads(tx, orgId, client.id, plan.targets.map((t) => t.poolLeadId), ctx.senderName);
  const written = await a.writer.write(ctx, leads);
  const payload = written.map((w) => ({ pool_lead_id: w.leadId, mails: w.mails, rules_used: w.rulesUsed }));
  // One statement for the whole round: a 1,000-lead batch is not 1,000 round trips.
  await tx.execute(sql`
    UPDATE batch_leads AS b
       SET mails = x.mails, rules_used = x.rules_used, written_at = ${now.toISOString()}::timestamptz, writes = b.writes + 1,
           review = 'pending', reviewed_by = NULL, reviewed_at = NULL, reject_reason = NULL, updated_at = ${now.toISOString()}::timestamptz
      FROM jsonb_to_recordset(${JSON.stringify(payload)}::jsonb) AS x(pool_lead_id uuid, mails jsonb, rules_used jsonb)
     WHERE b.batch_id = ${plan.batch.id}::uuid AND b.org_id = ${orgId}::uuid AND b.pool_lead_id = x.pool_lead_id`);
  const [batch] = await tx
    .update(batches)
    .set({ status: 'written', sequenceVersion: plan.sequence.version, revision: sql`${batches.revision} + 1`, updatedAt: now })
    .where(and(eq(batches.id, plan.batch.id), eq(batches.orgId, orgId)))
    .returning({ revision: batches.revision });
  const writtenIds = new Set(written.map((w) => w.leadId));
  const firstWrites = plan.targets.filter((t) => t.writes === 0 && writtenIds.has(t.poolLeadId)).length;
  const rewrites = written.length - firstWrites;
  const rounds = [
    { kind: 'write' as const, leads: firstWrites },
    { kind: 'rewrite' as const, leads: rewrites },
  ].filter((r) => r.leads > 0);
  if (rounds.length) {
    await tx.insert(batchWrites).values(rounds.map((r) => ({ orgId, batchId: plan.batch.id, kind: r.kind, leads: r.leads, credits: r.leads, confirmedBy: a.confirmedBy, planStepId: a.planStepId, at: now })));
  }
  const rulesUsed = [...new Set(written.flatMap((w) => w.rulesUsed))].sort();
  return { batch_id: plan.batch.id, leads: written.length, first_writes: firstWrites, rewrites, credits: written.length, sequence_version: plan.sequence.version, rules_used: rulesUsed, revision: batch.revision };
}
