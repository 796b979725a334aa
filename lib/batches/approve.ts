// approve_batch's two steps. Approval is the last review gate and pushes nothing: start_campaign proposes the push
// as a plan step, which runs on its day while the organization's push gate is open. Approving the batch approves its
// written leads still pending review too: review_* is for the leads a person wants to read, edit or drop, and a
// 1,000-lead batch must not need 2,000 calls. The source rule still holds: a pending lead with an unsourced sentence
// blocks the approval (source_missing) until it is edited or rejected.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { batchLeads, poolLeads } from '../../schema';
import { findClient } from '../agency/clients/view';
import { runTwoStep, type PreviewAnswer, type TwoStepDef } from '../agency/confirm';
import type { AgencyCall } from '../agency/operation';
import { ApiError } from '../errors';
import { requireOpenBatch } from './guards';
import { hasUnsourcedSentence } from './mails';
import { batchView, bumpRevision, type BatchView } from './view';

export type BatchInput = { client_id: string; confirm_token?: string };
export type ApprovePreview = { batch: BatchView; to_push: number; approves_pending: number; waiting: { not_written: number; source_missing: number } };

/**
 * Rejected leads leave the batch here: their pool status goes back to `new` (they were never contacted); only
 * approved leads stay `in_batch` for the push.
 */
export async function releaseLeads(tx: Parameters<typeof bumpRevision>[0], orgId: string, batchId: string, now: Date, which: 'rejected' | 'all') {
  const inBatch = tx
    .select({ id: batchLeads.poolLeadId })
    .from(batchLeads)
    .where(which === 'all' ? eq(batchLeads.batchId, batchId) : and(eq(batchLeads.batchId, batchId), eq(batchLeads.review, 'rejected')));
  const released = await tx
    .update(poolLeads)
    .set({ status: 'new', updatedAt: now })
    .where(and(eq(poolLeads.orgId, orgId), eq(poolLeads.status, 'in_batch'), inArray(poolLeads.id, inBatch)))
    .returning({ id: poolLeads.id });
  return released.length;
}

const approveDef: TwoStepDef<BatchInput, ApprovePreview, { batch: BatchView }> = {
  tool: 'approve_batch',
  async preview(call, input, db) {
    const scope = { orgId: call.auth.orgId, clientId: input.client_id };
    const lock = db !== call.services.db;
    await findClient(db, scope.orgId, scope.clientId, lock);
    const batch = await requireOpenBatch(db, scope, lock);
    const view = await batchView(db, batch);
    if (batch.status === 'approved') throw new ApiError('conflict', `batch ${batch.id} is already approved: start_campaign pushes it`, { body: { batch: view } });
    const [w] = await db
      .select({
        notWritten: sql<number>`(count(*) filter (where ${batchLeads.mails} is null))::int`,
        pending: sql<number>`(count(*) filter (where ${batchLeads.mails} is not null and ${batchLeads.review} = 'pending'))::int`,
        sourceMissing: sql<number>`(count(*) filter (where ${batchLeads.review} = 'pending' and ${hasUnsourcedSentence}))::int`,
      })
      .from(batchLeads)
      .where(and(eq(batchLeads.batchId, batch.id), sql`${batchLeads.review} <> 'rejected'`));
    const waiting = { not_written: Number(w.notWritten), source_missing: Number(w.sourceMissing) };
    const pending = Number(w.pending);
    const toPush = view.review.approved + pending;
    const blocked =
      waiting.not_written > 0
        ? { code: 'conflict' as const, message: `${waiting.not_written} lead(s) are not written yet (start_writing); rejected leads do not count` }
        : waiting.source_missing > 0
          ? { code: 'source_missing' as const, message: `${waiting.source_missing} lead(s) pending review have a sentence without a source: edit (review_edit_mail) or reject (review_reject) them first` }
          : toPush === 0
            ? { code: 'conflict' as const, message: 'no lead is approved (all are rejected): skip the batch (skip_batch)' }
            : null;
    return {
      preview: { batch: view, to_push: toPush, approves_pending: pending, waiting },
      state: { batch: batch.id, revision: batch.revision },
      credits: 0,
      ...(blocked && { blockedBy: blocked.code, blockedMessage: blocked.message }),
    };
  },
  async apply(call, input, tx, p) {
    const returned = await releaseLeads(tx, call.auth.orgId, p.preview.batch.id, call.now, 'rejected');
    await tx
      .update(batchLeads)
      .set({ review: 'approved', reviewedBy: call.actor, reviewedAt: call.now, updatedAt: call.now })
      .where(and(eq(batchLeads.batchId, p.preview.batch.id), eq(batchLeads.review, 'pending'), sql`${batchLeads.mails} is not null`));
    const batch = await bumpRevision(tx, p.preview.batch.id, call.now, { status: 'approved', approvedBy: call.actor, approvedAt: call.now });
    return {
      result: { batch: await batchView(tx, batch) },
      audit: { action: 'batch.approved', target: `batch:${batch.id}`, detail: { client_id: input.client_id, approved_leads: p.preview.to_push, approved_with_batch: p.preview.approves_pending, rejected_returned_to_pool: returned } },
    };
  },
};

/** Both calls of approve_batch: the preview (blocked while leads are unwritten or pending with an unsourced sentence), or the batch. */
export async function approveBatch(call: AgencyCall, input: BatchInput): Promise<PreviewAnswer<ApprovePreview> | { batch: BatchView }> {
  const out = await runTwoStep(call, approveDef, input);
  return out.confirmed ? out.result : out.answer;
}
