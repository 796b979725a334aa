// review_approve's two steps. A lead is approved only as written and fully sourced: a sentence without a source
// blocks the preview (blocked_by source_missing, naming each sentence) until an edit replaces it.
import { and, eq } from 'drizzle-orm';
import { batchLeads } from '../../schema';
import { runTwoStep, type PreviewAnswer, type TwoStepDef } from '../agency/confirm';
import type { AgencyCall } from '../agency/operation';
import { ApiError } from '../errors';
import { refuseApproved } from './guards';
import { leadInOpenBatch, reviewState, reviewView, type ReviewView } from './lead';
import { missingSources, type MissingSource } from './mails';
import { batchView, bumpRevision, type BatchView } from './view';

export type ReviewLeadInput = { client_id: string; lead_id: string; confirm_token?: string };
export type ReviewApprovePreview = { review: ReviewView; mails: number; sentences: number; source_missing: MissingSource[] };
export type ReviewResult = { review: ReviewView; batch: BatchView };

const reviewApproveDef: TwoStepDef<ReviewLeadInput, ReviewApprovePreview, ReviewResult> = {
  tool: 'review_approve',
  async preview(call, input, db) {
    const { batch, lead } = await leadInOpenBatch(call, db, input.client_id, input.lead_id);
    await refuseApproved(db, batch);
    if (!lead.mails) {
      throw new ApiError('conflict', `lead ${lead.poolLeadId} is not written yet: write the batch first (start_writing)`, { body: { review: reviewView(lead) } });
    }
    const missing = missingSources(lead.mails);
    return {
      preview: { review: reviewView(lead), mails: lead.mails.length, sentences: lead.mails.reduce((n, m) => n + m.sentences.length, 0), source_missing: missing },
      state: reviewState(batch, lead),
      credits: 0,
      ...(missing.length > 0 && {
        blockedBy: 'source_missing' as const,
        blockedMessage: `${missing.length} sentence(s) have no source (${missing.map((m) => `mail ${m.step} sentence ${m.sentence + 1}`).join(', ')}): replace them with review_edit_mail, then approve`,
      }),
    };
  },
  async apply(call, input, tx, p) {
    const [lead] = await tx
      .update(batchLeads)
      .set({ review: 'approved', reviewedBy: call.actor, reviewedAt: call.now, rejectReason: null, updatedAt: call.now })
      .where(and(eq(batchLeads.batchId, p.preview.review.batch_id), eq(batchLeads.poolLeadId, input.lead_id)))
      .returning();
    const batch = await bumpRevision(tx, lead.batchId, call.now);
    return {
      result: { review: reviewView(lead), batch: await batchView(tx, batch) },
      audit: { action: 'review.approved', target: `lead:${lead.poolLeadId}`, detail: { client_id: input.client_id, batch_id: batch.id, was: p.preview.review.status } },
    };
  },
};

/** Both calls of review_approve: the preview (blocked while a sentence lacks a source), or the approved review. */
export async function reviewApprove(call: AgencyCall, input: ReviewLeadInput): Promise<PreviewAnswer<ReviewApprovePreview> | ReviewResult> {
  const out = await runTwoStep(call, reviewApproveDef, input);
  return out.confirmed ? out.result : out.answer;
}
