// One lead of the client's open batch, as the review tools address it (lead_id = the pool lead's id), and its view.
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { batchLeads } from '../../schema';
import { findClient } from '../agency/clients/view';
import type { AgencyCall } from '../agency/operation';
import type { Db } from '../db/types';
import { notFound } from '../errors';
import { missingSources } from './mails';
import { openBatch, type BatchRow } from './view';

export type BatchLeadRow = typeof batchLeads.$inferSelect;

export const ReviewSchema = z.object({
  lead_id: z.string(),
  batch_id: z.string(),
  position: z.number().int(),
  status: z.enum(['pending', 'approved', 'rejected']),
  written: z.boolean(),
  source_missing: z.number().int().describe('sentences without a source'),
  reviewed_by: z.string().nullable(),
  reviewed_at: z.string().nullable(),
  reject_reason: z.string().nullable(),
});
export type ReviewView = z.infer<typeof ReviewSchema>;

export const reviewView = (r: BatchLeadRow): ReviewView => ({
  lead_id: r.poolLeadId,
  batch_id: r.batchId,
  position: r.position,
  status: r.review,
  written: r.mails !== null,
  source_missing: missingSources(r.mails).length,
  reviewed_by: r.reviewedBy,
  reviewed_at: r.reviewedAt?.toISOString() ?? null,
  reject_reason: r.rejectReason,
});

/**
 * The client, its open batch and the lead in it; a lead of another batch, client or organization is not_found.
 * Read inside a confirm (`db` is its transaction) the client and the batch row are locked, so changes of one batch
 * take turns and each confirm sees the revision the one before it left.
 */
export async function leadInOpenBatch(call: AgencyCall, db: Db, clientId: string, leadId: string): Promise<{ batch: BatchRow; lead: BatchLeadRow }> {
  const scope = { orgId: call.auth.orgId, clientId };
  const lock = db !== call.services.db;
  await findClient(db, scope.orgId, clientId, lock);
  // Without an open batch no lead is in one: not_found, as for a lead of another batch.
  const batch = await openBatch(db, scope.orgId, clientId, lock);
  if (!batch) throw notFound("lead in the client's open batch");
  const q = db
    .select()
    .from(batchLeads)
    .where(and(eq(batchLeads.batchId, batch.id), eq(batchLeads.poolLeadId, leadId), eq(batchLeads.orgId, scope.orgId)));
  const [lead] = lock ? await q.for('update') : await q;
  if (!lead) throw notFound("lead in the client's open batch");
  return { batch, lead };
}

/** What a review change's token is bound to: the batch's revision and the lead's own row. */
export const reviewState = (batch: BatchRow, lead: BatchLeadRow) => ({ batch: batch.id, revision: batch.revision, review: lead.review, writes: lead.writes });
