import { eq } from 'drizzle-orm';
import { drafts, replies } from '../../schema';
import { randomToken } from '../crypto/secrets';
import type { Db } from '../db/types';
import { recordDecision } from '../decisions/record';
import { isUuid } from '../ids';
import { findReplyForUpdate } from '../leads/find_reply';
import { auditReply } from './audit';
import { optedOutRefusal } from '../suppression/guard';
import { tenantOf } from '../tenancy';
import { alreadySent, draftChangedMeanwhile, noPendingDraft } from './refusals';
import { editInfo } from './learn';
import { sendNow, type LockedReply } from './send_now';
import { isRefused, keyDetail, type QueuedReason, type QueuedResult, type Refused, type SendActor, type SendDeps, type SendInput, type SentResult } from './types';

export const newSuggestionId = () => `sug_${randomToken(16, 'base62')}`;

/** The actor's API key id, or null for an actor that is a person (portal and desk users act as `kind_user:<id>`). */
const apiKeyIdOf = (actor: SendActor) => (isUuid(actor.keyId) ? actor.keyId : null);

function queueReason(level: number, hasDraft: boolean): QueuedReason {
  if (level <= 0) return 'no_active_autonomy_grant';
  if (level === 1) return 'review_required_at_autonomy_level_1';
  // Level 2+ only reaches the queue when a draft already waits there (core §3: a repeat send replaces it).
  if (hasDraft) return 'draft_pending_review';
  throw new Error('unreachable: level 2+ without a pending draft sends');
}

/**
 * POST /v1/replies/{id}/send under governance (core §3 "Reply draft under governed send"):
 * - sent reply → 409 already_sent;
 * - a recipient on the do-not-contact or the client's never-mail list → 409 recipient_opted_out, nothing queued;
 * - a draft already queued → replaced (latest body wins, same suggestion_id), 202;
 * - no draft, level 0 or 1 → queued for review, 202;
 * - no draft, level 2+ → sent now, 200, under the send limits.
 * The reply row is locked for the whole decision, so concurrent sends of one reply serialise. `audit`: the agency
 * audit actor (./audit.ts), whose row commits with the decision; refusals write none.
 */
export async function sendReply({
  deps,
  actor,
  replyId,
  input,
  audit,
  replacePending,
}: {
  deps: SendDeps;
  actor: SendActor;
  replyId: string;
  input: SendInput;
  audit?: string | null;
  /**
   * Only replace the draft waiting for review, whose text the caller read (a person's edit at the review desk):
   * under the row lock, no draft → no_pending_draft (rejected or skipped meanwhile; nothing is queued anew), another
   * text → conflict.
   */
  replacePending?: { body: string };
}): Promise<SentResult | QueuedResult> {
  const now = deps.clock.now();
  const result = await deps.db.transaction(async (tx): Promise<SentResult | QueuedResult | Refused> => {
    const locked = await findReplyForUpdate(tx, tenantOf(actor), replyId);
    const { reply, lead } = locked;
    const trail = (action: string, detail: Record<string, unknown>) =>
      recordDecision(tx, { orgId: actor.orgId, actor: actor.keyName, action, replyId: reply.id, leadId: lead.id, detail: { via: 'send', ...keyDetail(actor), ...detail }, at: now });

    if (reply.status === 'sent') {
      await trail('send.blocked', { code: 'already_sent', autonomy_level: actor.autonomyLevel });
      return { refused: alreadySent(reply.sentAt) };
    }
    // Before anything is queued or sent: a draft to a recipient who opted out would only ask a reviewer to approve
    // what can never go out. (sendNow checks again for approvals and follow-ups; here it is one more indexed read.)
    const optedOut = await optedOutRefusal(tx, { orgId: actor.orgId, clientId: locked.campaign.clientId, email: reply.fromEmail });
    if (optedOut) {
      await trail('send.blocked', { code: optedOut.code, autonomy_level: actor.autonomyLevel });
      return { refused: optedOut };
    }
    const [draft] = await tx.select().from(drafts).where(eq(drafts.replyId, reply.id));
    if (replacePending && !draft) return { refused: noPendingDraft() };
    if (replacePending && draft.body !== replacePending.body) return { refused: draftChangedMeanwhile() };
    const info = editInfo(input.body, input.original_suggestion, input.edited);
    const editDetail = info.editDistance !== null ? { edit_distance: info.editDistance, edited: info.edited } : {};

    const audited = (action: string, detail: Record<string, unknown>) =>
      auditReply(tx, { orgId: actor.orgId, actor: audit, action, replyId: reply.id, detail: { autonomy_level: actor.autonomyLevel, ...detail }, at: now });

    if (!draft && actor.autonomyLevel >= 2) {
      const sent = await sendNow({ tx, deps, actor, locked, body: input.body, originalSuggestion: info.original, edited: info.edited, now });
      if (!isRefused(sent)) await audited('reply.sent', { to_email: sent.to_email });
      return sent;
    }
    const reason = queueReason(actor.autonomyLevel, Boolean(draft));
    // drafts.key_id is the API key behind the draft (it names "queued by" and its autonomy level). A person's edit
    // at the review desk ('desk_user:…') has no key: the draft stays with the key that queued it, and the person is
    // the Decision Trail actor.
    const person = apiKeyIdOf(actor) === null;
    const keyId = person ? (draft?.keyId ?? null) : actor.keyId;
    // Likewise the reason it was queued stays the key's: a person's edit grants or withholds no autonomy.
    const queuedReason = person && draft ? (draft.reason as QueuedReason) : reason;
    const draftValues = { body: input.body, originalSuggestion: info.original, edited: info.edited, keyId, reason: queuedReason, updatedAt: now };
    if (draft) {
      await tx.update(drafts).set(draftValues).where(eq(drafts.replyId, reply.id));
      await trail('reply.draft_replaced', { reason: queuedReason, autonomy_level: actor.autonomyLevel, suggestion_id: draft.suggestionId, ...editDetail });
      await audited('reply.draft_replaced', { reason: queuedReason, suggestion_id: draft.suggestionId });
      return queued(reply.id, queuedReason, draft.suggestionId, true);
    }
    const out = await queueDraft(tx, { locked, actor, reason, draftValues, editDetail, trail, now });
    await audited('reply.queued', { reason, suggestion_id: out.suggestion_id });
    return out;
  });
  if (isRefused(result)) throw result.refused;
  return result;
}

async function queueDraft(
  tx: Db,
  q: {
    locked: LockedReply;
    actor: SendActor;
    reason: QueuedReason;
    draftValues: { body: string; originalSuggestion: string | null; edited: boolean; keyId: string | null; reason: string; updatedAt: Date };
    editDetail: Record<string, unknown>;
    trail: (action: string, detail: Record<string, unknown>) => Promise<void>;
    now: Date;
  },
): Promise<QueuedResult> {
  const { reply } = q.locked;
  const suggestionId = newSuggestionId();
  await tx.insert(drafts).values({ replyId: reply.id, orgId: q.actor.orgId, suggestionId, queuedAt: q.now, ...q.draftValues });
  await tx.update(replies).set({ status: 'queued' }).where(eq(replies.id, reply.id));
  await q.trail('reply.queued', {
    reason: q.reason,
    autonomy_level: q.actor.autonomyLevel,
    suggestion_id: suggestionId,
    previous_status: reply.status,
    ...q.editDetail,
  });
  return queued(reply.id, q.reason, suggestionId, false);
}

const queued = (replyId: string, reason: QueuedReason, suggestionId: string, replaced: boolean): QueuedResult => ({
  status: 'queued_for_review',
  reply_id: replyId,
  reason,
  suggestion_id: suggestionId,
  replaced,
});

