import { eq, sql } from 'drizzle-orm';
import { drafts, leads, replies, threadMessages } from '../../schema';
import { stampLeadChange } from '../crm/change_clock';
import type { Db } from '../db/types';
import { recordDecision } from '../decisions/record';
import { ApiError } from '../errors';
import { emitEvent, truncate } from '../events/outbox';
import type { findReplyForUpdate } from '../leads/find_reply';
import { outgoingMessage } from '../mail/message';
import { providerFor } from '../mail/provider';
import { optedOutRefusal } from '../suppression/guard';
import type { MailProvider, ProviderKind, ProviderResult, SendFailureOutcome } from '../mail/port';
import { editInfo, learnFromSend } from './learn';
import { claimSend } from './limits';
import { keyDetail, type Refused, type SendActor, type SendDeps, type SentResult } from './types';

export type LockedReply = Awaited<ReturnType<typeof findReplyForUpdate>>;

/** A failed provider call, for callers that decide what comes next (a follow-up is not retried after `unknown`). */
export type ProviderFailure = { kind: ProviderKind; outcome: SendFailureOutcome; error: string };
export type SendRefused = Refused & { providerFailure?: ProviderFailure };

/** Where a person looks to see whether a message went out. */
const PROVIDER_PLACE: Record<ProviderKind, string> = {
  outbox: 'the outbox',
  http: "the organization's sending service",
  instantly: 'Instantly',
  smartlead: 'Smartlead',
};

export type SendNowArgs = {
  tx: Db;
  deps: SendDeps;
  actor: SendActor;
  /** The reply and lead, locked FOR UPDATE by the caller's transaction: this is what makes a send happen once. */
  locked: LockedReply;
  body: string;
  originalSuggestion: string | null;
  edited: boolean;
  /** Set when a reviewer approves a queued draft. */
  approval?: { approver: string; suggestionId: string };
  now: Date;
};

/**
 * Sends a reply now, inside the caller's transaction and under its row lock, so concurrent sends and approvals
 * of one reply serialise and only the first reaches the provider. Order: send limits → provider → state.
 * A limit or provider refusal writes its Decision Trail row and is returned (the caller commits the row, then
 * throws). A failed provider call changes nothing else; it gives the lead's cooldown back only when the message
 * was certainly not sent (`not_sent`): after an `unknown` failure the prospect may have it, so the cooldown stands.
 */
export async function sendNow(a: SendNowArgs): Promise<SentResult | SendRefused> {
  const { tx, deps, actor, now } = a;
  const { reply, lead, campaign } = a.locked;
  const via = a.approval ? 'approve' : 'send';
  const trail = (action: string, detail: Record<string, unknown>, actor_ = actor.keyName) =>
    recordDecision(tx, { orgId: actor.orgId, actor: actor_, action, replyId: reply.id, leadId: lead.id, detail: { via, ...keyDetail(actor), ...detail }, at: now });

  // Before the limits: an opted-out prospect is never contacted, and a refused send must not use up a send slot.
  const optedOut = await optedOutRefusal(tx, { orgId: actor.orgId, clientId: campaign.clientId, email: reply.fromEmail });
  if (optedOut) {
    await trail('send.blocked', { code: optedOut.code, autonomy_level: actor.autonomyLevel });
    return { refused: optedOut };
  }

  const claim = await claimSend(deps.limits, actor.keyId, lead.id);
  if (!claim.ok) {
    await trail('send.blocked', { code: claim.error.code, limit: claim.limit, retry_after: claim.retryAfterSec, autonomy_level: actor.autonomyLevel });
    return { refused: claim.error };
  }

  let provider: MailProvider;
  let result: ProviderResult;
  try {
    provider = await providerFor(tx, deps, actor.orgId);
    result = await provider.send(tx, outgoingMessage(actor.orgId, a.locked, a.body), now);
  } catch (err) {
    await claim.release();
    throw err;
  }
  if (!result.ok) {
    // Nothing marked sent and the draft (if any) stays, either way. `not_sent` is not a contact (operator §4): the
    // cooldown goes back. `unknown` may have been one: the cooldown stands, and the answer says to check first.
    const { outcome, error } = result;
    if (outcome === 'not_sent') await claim.release();
    await trail('send.provider_failed', { provider: provider.kind, outcome, error });
    deps.log.warn('sending provider failed', { replyId: reply.id, provider: provider.kind, outcome, error });
    const message =
      outcome === 'unknown'
        ? `the sending provider did not confirm the message (${error}); it may have been delivered — check ${PROVIDER_PLACE[provider.kind]} before sending again`
        : `the sending provider failed (${error}); nothing was sent`;
    return { refused: new ApiError('provider_error', message), providerFailure: { kind: provider.kind, outcome, error } };
  }

  try {
    const info = editInfo(a.body, a.originalSuggestion, a.edited);
    const learned = await learnFromSend(tx, {
      orgId: actor.orgId,
      clientId: campaign.clientId,
      replyText: reply.bodyStripped,
      classification: reply.classification,
      sent: a.body,
      info,
      now,
    });
    await tx.update(replies).set({ status: 'sent', sentAt: now }).where(eq(replies.id, reply.id));
    await tx.insert(threadMessages).values({ orgId: actor.orgId, leadId: lead.id, replyId: reply.id, role: 'outbound', content: a.body, at: now });
    await tx.update(leads).set({ lastActivityAt: sql`greatest(${leads.lastActivityAt}, ${now.toISOString()}::timestamptz)` }).where(eq(leads.id, lead.id));
    await tx.delete(drafts).where(eq(drafts.replyId, reply.id));

    const sentBy = a.approval?.approver ?? actor.keyName;
    if (a.approval) {
      await trail('reply.approved', { approver: a.approval.approver, suggestion_id: a.approval.suggestionId }, a.approval.approver);
      await emitEvent(tx, {
        orgId: actor.orgId,
        kind: 'reply.approved',
        at: now,
        data: { reply_id: reply.id, lead_id: lead.id, campaign_id: campaign.id, suggestion_id: a.approval.suggestionId, approver: a.approval.approver, approved_at: now.toISOString() },
      });
    }
    await trail(
      'reply.sent',
      {
        to_email: reply.fromEmail,
        provider: provider.kind,
        autonomy_level: actor.autonomyLevel,
        ...(a.approval ? { approver: a.approval.approver, suggestion_id: a.approval.suggestionId } : {}),
        ...(info.editDistance !== null ? { edit_distance: info.editDistance, edited: info.edited } : {}),
        learned,
      },
      sentBy,
    );
    await emitEvent(tx, {
      orgId: actor.orgId,
      kind: 'reply.sent',
      at: now,
      data: {
        reply_id: reply.id,
        lead_id: lead.id,
        campaign_id: campaign.id,
        campaign_name: campaign.name,
        to_email: reply.fromEmail,
        body: truncate(a.body),
        sent_at: now.toISOString(),
        ...(a.approval ? { approver: a.approval.approver } : {}),
      },
    });
    // Last: the lead's `updated_at` from the change clock (the CRM feed's guarantee); the caller holds its row lock.
    await stampLeadChange(tx, actor.orgId, [lead.id]);
    return { status: 'sent', reply_id: reply.id, sent: true, to_email: reply.fromEmail, learned, sent_at: now.toISOString() };
  } catch (err) {
    // The outbox row rolls back with this transaction: then nobody was contacted and the cooldown goes back.
    // An http provider has already delivered, so its cooldown stands.
    if (provider.transactional) await claim.release();
    throw err;
  }
}
