import { ApiError } from '../errors';
import { approveDraft, sendReply } from '../sending';
import type { ApprovedResult } from '../sending/approve_draft';
import type { Services } from '../services';
import type { WebSession } from '../web/sessions';
import { deskActor, deskApprover, deskTenant } from './actor';
import { assertDraftUnchanged, pendingDraft } from './pending';

export type EditOutcome = { status: 'sent'; result: ApprovedResult; edited: boolean } | { status: 'saved_not_sent'; refusal: ApiError };

/**
 * "Save edit and send": the reviewer's text replaces the queued draft through sendReply (which, with a draft
 * pending, replaces it: same suggestion id, latest body wins), recorded as an edit of the original suggestion so
 * that the send teaches the assistant; then approveDraft sends it. The edit is its own transaction on purpose:
 * when the approval is refused (send limits, cooldown, opted out, provider down) the edit stays queued and the
 * reviewer is told it was saved but not sent, and why.
 */
export async function editAndApproveAtDesk({ services, session, replyId, body, seen }: { services: Services; session: WebSession; replyId: string; body: string; seen: string }): Promise<EditOutcome> {
  const actor = deskActor(session);
  // Only an edit of a draft that still waits: without one, sendReply would queue a new draft for a reply someone
  // meanwhile sent, rejected or skipped.
  const draft = await pendingDraft(services.db, deskTenant(session), replyId);
  await assertDraftUnchanged(draft.body, seen);
  // A textarea posts CRLF line ends: an unchanged text is a plain approval, not an edit that teaches the assistant.
  const edited = body !== draft.body.replace(/\r\n/g, '\n');
  const toSend = edited ? body : draft.body;
  if (edited) {
    // The suggestion the reviewer edited: the AI's original when the draft carries one, else the queued text.
    const original = draft.originalSuggestion ?? draft.body;
    // Under the row lock: only the draft this person read is replaced (none rejected, skipped or rewritten meanwhile).
    await sendReply({ deps: services, actor, replyId, input: { body, original_suggestion: original, edited: true }, replacePending: { body: draft.body } });
  }
  try {
    const result = await approveDraft({ deps: services, actor, replyId, approver: deskApprover(session), expectedBody: toSend });
    return { status: 'sent', result, edited };
  } catch (err) {
    if (edited && err instanceof ApiError) return { status: 'saved_not_sent', refusal: err };
    throw err;
  }
}
