// review_edit_mail's two steps: one mail of a written lead replaced by a person's (or the assistant's) text. The
// confirm stores the mail, its review_edits row (before and after: the evidence learned rules are mined from) and
// the mining (lib/learning/mine.ts) in one transaction; the lead goes back to pending review.
import { and, eq } from 'drizzle-orm';
import { batchLeads, reviewEdits, type WrittenMail } from '../../schema';
import { runTwoStep, type PreviewAnswer, type TwoStepDef } from '../agency/confirm';
import type { AgencyCall } from '../agency/operation';
import { ApiError } from '../errors';
import { mineEdit } from '../learning/mine';
import { sourcesAfterEdit } from './edit_sources';
import { refuseApproved } from './guards';
import { leadInOpenBatch, reviewState, reviewView, type ReviewView } from './lead';
import { batchView, bumpRevision, type BatchView } from './view';

export type ReviewEditInput = { client_id: string; lead_id: string; step: number; subject?: string | null; body: string; confirm_token?: string };
export type ReviewEditPreview = { review: ReviewView; before: WrittenMail; after: WrittenMail; kept: number; added: number; removed: number };
export type EditView = { id: string; step: number; before: WrittenMail; after: WrittenMail; by: string; at: string };
export type ReviewEditResult = { review: ReviewView; edit: EditView; batch: BatchView };

const reviewEditDef: TwoStepDef<ReviewEditInput, ReviewEditPreview, ReviewEditResult> = {
  tool: 'review_edit_mail',
  async preview(call, input, db) {
    const { batch, lead } = await leadInOpenBatch(call, db, input.client_id, input.lead_id);
    await refuseApproved(db, batch);
    if (!lead.mails) throw new ApiError('conflict', `lead ${lead.poolLeadId} is not written yet: write the batch first (start_writing)`, { body: { review: reviewView(lead) } });
    const before = lead.mails.find((m) => m.step === input.step);
    if (!before) {
      throw new ApiError('validation_error', `step: the lead has no mail ${input.step} (its mails are steps ${lead.mails.map((m) => m.step).join(', ')})`, {
        details: [{ path: 'step', message: `no mail ${input.step}` }],
      });
    }
    const subject = input.subject === undefined ? before.subject : input.subject;
    if (subject === null && before.step === 1) throw new ApiError('validation_error', 'subject: the first mail needs a subject', { details: [{ path: 'subject', message: 'required for the first mail' }] });
    if (input.body === before.body && subject === before.subject) {
      throw new ApiError('validation_error', 'body: the same as the current mail; nothing to change', { details: [{ path: 'body', message: 'unchanged' }] });
    }
    const edited = sourcesAfterEdit(before, input.body, call.actor);
    if (edited.sentences.length === 0) throw new ApiError('validation_error', 'body: has no sentence', { details: [{ path: 'body', message: 'no sentence' }] });
    const after: WrittenMail = { step: before.step, subject, delay_days: before.delay_days, sentences: edited.sentences, body: input.body };
    return {
      preview: { review: reviewView(lead), before, after, kept: edited.kept, added: edited.added, removed: edited.removed },
      state: reviewState(batch, lead),
      credits: 0,
    };
  },
  async apply(call, input, tx, p) {
    const { before, after } = p.preview;
    const [current] = await tx
      .select({ mails: batchLeads.mails })
      .from(batchLeads)
      .where(and(eq(batchLeads.batchId, p.preview.review.batch_id), eq(batchLeads.poolLeadId, input.lead_id)));
    const mails = (current.mails ?? []).map((m) => (m.step === after.step ? after : m));
    // An edited lead is reviewed again, whatever it was: the edit is a new mail nobody approved yet.
    const [lead] = await tx
      .update(batchLeads)
      .set({ mails, review: 'pending', reviewedBy: null, reviewedAt: null, rejectReason: null, updatedAt: call.now })
      .where(and(eq(batchLeads.batchId, p.preview.review.batch_id), eq(batchLeads.poolLeadId, input.lead_id)))
      .returning();
    const [edit] = await tx
      .insert(reviewEdits)
      .values({ orgId: call.auth.orgId, clientId: input.client_id, batchId: lead.batchId, poolLeadId: lead.poolLeadId, step: after.step, before, after, by: call.actor, at: call.now })
      .returning();
    await mineEdit(tx, { orgId: call.auth.orgId, clientId: input.client_id, editId: edit.id, batchId: lead.batchId, poolLeadId: lead.poolLeadId, before, after });
    const batch = await bumpRevision(tx, lead.batchId, call.now);
    return {
      result: {
        review: reviewView(lead),
        edit: { id: edit.id, step: edit.step, before, after, by: edit.by, at: edit.at.toISOString() },
        batch: await batchView(tx, batch),
      },
      audit: {
        action: 'review.edited',
        target: `lead:${lead.poolLeadId}`,
        detail: { client_id: input.client_id, batch_id: batch.id, edit_id: edit.id, step: after.step, kept: p.preview.kept, added: p.preview.added, removed: p.preview.removed },
      },
    };
  },
};

/** Both calls of review_edit_mail: the mail before and after with each sentence's source, or the stored edit. */
export async function reviewEditMail(call: AgencyCall, input: ReviewEditInput): Promise<PreviewAnswer<ReviewEditPreview> | ReviewEditResult> {
  const out = await runTwoStep(call, reviewEditDef, input);
  return out.confirmed ? out.result : out.answer;
}
