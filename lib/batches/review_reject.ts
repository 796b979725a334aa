// review_reject's two steps. A rejected lead stays in the batch's history with its reason and is never pushed; its
// pool status goes back to `new` when the batch is approved or skipped, and allocate_batch does not pick it again.
// A lead can be rejected before it is written (not a fit), which also spares writing it.
import { and, eq } from 'drizzle-orm';
import { batchLeads } from '../../schema';
import { runTwoStep, type PreviewAnswer, type TwoStepDef } from '../agency/confirm';
import type { AgencyCall } from '../agency/operation';
import { refuseApproved } from './guards';
import { leadInOpenBatch, reviewState, reviewView, type ReviewView } from './lead';
import type { ReviewResult } from './review_approve';
import { batchView, bumpRevision } from './view';

export type ReviewRejectInput = { client_id: string; lead_id: string; reason: string; confirm_token?: string };
export type ReviewRejectPreview = { review: ReviewView; reason: string };

const reviewRejectDef: TwoStepDef<ReviewRejectInput, ReviewRejectPreview, ReviewResult> = {
  tool: 'review_reject',
  async preview(call, input, db) {
    const { batch, lead } = await leadInOpenBatch(call, db, input.client_id, input.lead_id);
    await refuseApproved(db, batch);
    return { preview: { review: reviewView(lead), reason: input.reason }, state: reviewState(batch, lead), credits: 0 };
  },
  async apply(call, input, tx, p) {
    const [lead] = await tx
      .update(batchLeads)
      .set({ review: 'rejected', rejectReason: input.reason, reviewedBy: call.actor, reviewedAt: call.now, updatedAt: call.now })
      .where(and(eq(batchLeads.batchId, p.preview.review.batch_id), eq(batchLeads.poolLeadId, input.lead_id)))
      .returning();
    const batch = await bumpRevision(tx, lead.batchId, call.now);
    return {
      result: { review: reviewView(lead), batch: await batchView(tx, batch) },
      audit: { action: 'review.rejected', target: `lead:${lead.poolLeadId}`, detail: { client_id: input.client_id, batch_id: batch.id, reason: input.reason, was: p.preview.review.status } },
    };
  },
};

/** Both calls of review_reject: the preview, or the rejected review. */
export async function reviewReject(call: AgencyCall, input: ReviewRejectInput): Promise<PreviewAnswer<ReviewRejectPreview> | ReviewResult> {
  const out = await runTwoStep(call, reviewRejectDef, input);
  return out.confirmed ? out.result : out.answer;
}
