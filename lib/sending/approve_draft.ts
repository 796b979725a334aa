import { eq } from 'drizzle-orm';
import { drafts } from '../../schema';
import { recordDecision } from '../decisions/record';
import { findReplyForUpdate } from '../leads/find_reply';
import { tenantOf } from '../tenancy';
import { auditReply } from './audit';
import { sendNow } from './send_now';
import { alreadySent, draftChangedMeanwhile, noPendingDraft } from './refusals';
import { isRefused, keyDetail, type Refused, type SendActor, type SendDeps, type SentResult } from './types';

export type ApprovedResult = SentResult & { suggestion_id: string; approver: string };

/**
 * POST /v1/replies/{id}/approve: sends the queued draft as it stands (latest body), with the approver recorded,
 * `reply.approved` then `reply.sent`. Approvals are sends: the approving key's send rate and the lead's cooldown
 * apply. Under the reply's row lock, concurrent approvals (or an approval racing a send) reach the provider once.
 */
export async function approveDraft({
  deps,
  actor,
  replyId,
  approver,
  audit,
  expectedBody,
}: {
  deps: SendDeps;
  actor: SendActor;
  replyId: string;
  approver: string;
  /** The agency audit actor (./audit.ts): its row commits with the send. */
  audit?: string | null;
  /**
   * The draft text the approver read (a person at the review desk): checked under the reply's row lock, so a draft
   * replaced meanwhile is refused (409 conflict) instead of sent under a name that never read it.
   */
  expectedBody?: string;
}): Promise<ApprovedResult> {
  const now = deps.clock.now();
  const result = await deps.db.transaction(async (tx): Promise<ApprovedResult | Refused> => {
    const locked = await findReplyForUpdate(tx, tenantOf(actor), replyId);
    const { reply, lead } = locked;
    if (reply.status === 'sent') {
      await recordDecision(tx, {
        orgId: actor.orgId,
        actor: approver,
        action: 'send.blocked',
        replyId: reply.id,
        leadId: lead.id,
        detail: { via: 'approve', code: 'already_sent', approver, ...keyDetail(actor) },
        at: now,
      });
      return { refused: alreadySent(reply.sentAt) };
    }
    const [draft] = await tx.select().from(drafts).where(eq(drafts.replyId, reply.id));
    if (!draft) return { refused: noPendingDraft() };
    if (expectedBody !== undefined && draft.body !== expectedBody) return { refused: draftChangedMeanwhile() };
    const sent = await sendNow({
      tx,
      deps,
      actor,
      locked,
      body: draft.body,
      originalSuggestion: draft.originalSuggestion,
      edited: draft.edited,
      approval: { approver, suggestionId: draft.suggestionId },
      now,
    });
    if (isRefused(sent)) return sent;
    await auditReply(tx, { orgId: actor.orgId, actor: audit, action: 'reply.approved', replyId: reply.id, detail: { approver, suggestion_id: draft.suggestionId, to_email: sent.to_email }, at: now });
    return { ...sent, suggestion_id: draft.suggestionId, approver };
  });
  if (isRefused(result)) throw result.refused;
  return result;
}
