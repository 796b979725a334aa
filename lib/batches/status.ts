// batch_status: the client's open batch (else its latest), its counts, what writing it cost, the rewrite limit's
// room (spec §8: rewrites within 14 days may cost at most twice writing it once) and what waits for whom.
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { batchLeads, batchWrites } from '../../schema';
import { findClient } from '../agency/clients/view';
import type { AgencyCall } from '../agency/operation';
import type { Db } from '../db/types';
import { BatchSchema, batchView, latestBatch, openBatch, type BatchRow, type BatchView } from './view';
import { hasUnsourcedSentence } from './mails';

export const REWRITE_WINDOW_DAYS = 14;

export const BatchStatusSchema = BatchSchema.extend({
  source_missing: z.number().int().describe('written leads with a sentence lacking a source'),
  credits: z.object({ writing: z.number().int(), rewrite_14d: z.number().int(), rewrite_limit: z.number().int() }),
});
export type BatchStatusView = z.infer<typeof BatchStatusSchema>;

// A sentence whose source is null (or absent) anywhere in a lead's mails.

function nextOf(b: BatchView | null, toWrite: number, sourceMissing: number): string {
  if (!b || b.status === 'pushed' || b.status === 'skipped') return 'the assistant: compose the next batch (allocate_batch)';
  if (b.status === 'pushing') return 'nobody: the batch is being pushed to the sequencer';
  if (b.status === 'approved') return 'the assistant: start the campaign (start_campaign); a person approves its plan, and the push runs on its day while the push gate is open';
  if (b.status === 'writing') return 'nobody: writing is under way';
  if (toWrite > 0) return `the assistant: write ${toWrite} lead(s) (start_writing, paid)`;
  if (sourceMissing > 0) return `a reviewer: ${sourceMissing} lead(s) have a sentence without a source: edit (review_edit_mail) or reject (review_reject) them`;
  if (b.review.pending > 0) {
    return `a reviewer: read the leads you want (review_batch, review_lead; review_edit_mail or review_reject), then approve the batch (approve_batch), which approves the ${b.review.pending} pending lead(s) too`;
  }
  if (b.review.approved === 0) return 'the assistant: every lead is rejected: skip the batch (skip_batch)';
  return `the assistant: approve the batch of ${b.review.approved} lead(s) (approve_batch)`;
}

/** The batch with its status counts, and what waits for whom (`next`). */
export async function batchStatusView(db: Db, row: BatchRow, now: Date): Promise<{ batch: BatchStatusView; next: string }> {
  const view = await batchView(db, row);
  const since = new Date(now.getTime() - REWRITE_WINDOW_DAYS * 86_400_000);
  const [credits] = await db
    .select({
      writing: sql<number>`coalesce(sum(${batchWrites.credits}), 0)::int`,
      once: sql<number>`coalesce(sum(${batchWrites.credits}) filter (where ${batchWrites.kind} = 'write'), 0)::int`,
      rewrite: sql<number>`coalesce(sum(${batchWrites.credits}) filter (where ${batchWrites.kind} = 'rewrite' and ${batchWrites.at} > ${since.toISOString()}::timestamptz), 0)::int`,
    })
    .from(batchWrites)
    .where(and(eq(batchWrites.batchId, row.id), eq(batchWrites.orgId, row.orgId)));
  const [open] = await db
    .select({
      toWrite: sql<number>`(count(*) filter (where ${batchLeads.mails} is null))::int`,
      missing: sql<number>`(count(*) filter (where ${batchLeads.mails} is not null and ${hasUnsourcedSentence}))::int`,
    })
    .from(batchLeads)
    .where(and(eq(batchLeads.batchId, row.id), sql`${batchLeads.review} <> 'rejected'`));
  const sourceMissing = Number(open.missing);
  const batch: BatchStatusView = {
    ...view,
    source_missing: sourceMissing,
    // "2 × writing it once" (lib/writing/round.ts): what its first writing cost, or, before any, its leads not rejected.
    credits: { writing: Number(credits.writing), rewrite_14d: Number(credits.rewrite), rewrite_limit: 2 * (Number(credits.once) || view.leads - view.review.rejected) },
  };
  return { batch, next: nextOf(view, Number(open.toWrite), sourceMissing) };
}

/** batch_status: `{ batch, next }`; batch null when the client has no batch yet. */
export async function batchStatus(call: AgencyCall, input: { client_id: string }): Promise<{ batch: BatchStatusView | null; next: string }> {
  const { db } = call.services;
  const orgId = call.auth.orgId;
  await findClient(db, orgId, input.client_id);
  const row = (await openBatch(db, orgId, input.client_id)) ?? (await latestBatch(db, orgId, input.client_id));
  if (!row) return { batch: null, next: nextOf(null, 0, 0) };
  return batchStatusView(db, row, call.now);
}
