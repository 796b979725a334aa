import { and, asc, eq, lte } from 'drizzle-orm';
import { followups, replies } from '../../schema';
import type { Db } from '../db/types';
import { recordDecision } from '../decisions/record';
import type { ApiError } from '../errors';
import { findReplyForUpdate } from '../leads/find_reply';
import { sendNow } from '../sending/send_now';
import { optedOutRefusal } from '../suppression/guard';
import { isRefused, type SendActor, type SendDeps } from '../sending/types';
import { OWNER_ACTOR, type Followup } from './plan';
import type { Queue } from '../queue/port';
import { errorText } from '../log';
import { scheduleAfterCommit, scheduleFollowup } from './schedule';

/** A provider that keeps refusing (`not_sent`): after this many tries the follow-up waits for a person instead. */
export const MAX_FOLLOWUP_ATTEMPTS = 6;
/** A message may arrive this early (two clocks): it still counts as due. */
const EARLY_TOLERANCE_MS = 1_000;

export type FollowupDeps = SendDeps & { queue: Queue };
export type FollowupOutcome = 'sent' | 'deferred' | 'review' | 'cancelled' | 'skipped';

/**
 * Who sends a follow-up. It was planned by the organization owner (admin API), the one who grants keys their
 * autonomy: planning it is the approval, given in advance, like POST /approve for a draft. So no key's autonomy
 * gates it; the send limits do, as for approvals: the lead's 15-minute cooldown, and 5 sends per minute for the
 * owner's planned messages of one organization (their own counter, apart from any key's).
 */
export const followupActor = (orgId: string): SendActor => ({
  orgId,
  clientId: null,
  keyId: `owner-followups:${orgId}`,
  keyName: `${OWNER_ACTOR} (planned follow-up)`,
  autonomyLevel: 2,
});

/** Wait before the next try of a refused send: the limit's own Retry-After, or backoff for a failing provider. */
function retryDelayMs(error: ApiError, attempts: number) {
  if (error.code === 'provider_error') return Math.min(60_000 * 2 ** (attempts - 1), 3_600_000);
  return (error.extra.retryAfter ?? 60) * 1000;
}

/**
 * Runs one due follow-up (the `followup.send` job; at least once, so idempotent):
 * - cancelled, sent, or in review (waits for a person): nothing;
 * - planned: sent through the governed-send core (sendNow: send limits, lead cooldown, provider, Decision Trail,
 *   `reply.sent`), under the reply and lead row locks, so two deliveries of the job send once. A blocked send, or
 *   one the provider certainly did not take (`not_sent`), is recorded and tried again later; one the provider may
 *   have delivered (`unknown`: timeout, 5xx) goes to review at once, never retried; a draft waiting in the review
 *   queue for the same reply sends the follow-up to review instead (a person is already deciding what this
 *   prospect gets);
 * - a recipient who opted out (or is on the client's never-mail list): cancelled, never retried or reviewed.
 */
export async function runFollowup(deps: FollowupDeps, followupId: string): Promise<FollowupOutcome> {
  const now = deps.clock.now();
  const [peek] = await deps.db.select().from(followups).where(eq(followups.id, followupId));
  if (!peek || peek.status !== 'planned') return 'skipped';
  const outcome = await deps.db.transaction(async (tx) => {
    // Lead before follow-up, the order CRM writes lock in: no deadlock between the two.
    const locked = await findReplyForUpdate(tx, { orgId: peek.orgId, clientId: null }, peek.replyId);
    const [f] = await tx.select().from(followups).where(eq(followups.id, followupId)).for('update');
    if (!f || f.status !== 'planned') return { result: 'skipped' as const };
    if (f.nextAttemptAt && f.nextAttemptAt.getTime() > now.getTime() + EARLY_TOLERANCE_MS) return { result: 'skipped' as const }; // its own job comes later
    const trail = (action: string, detail: Record<string, unknown>) =>
      recordDecision(tx, { orgId: f.orgId, actor: followupActor(f.orgId).keyName, action, replyId: f.replyId, leadId: f.leadId, detail: { followup_id: f.id, kind: f.kind, ...detail }, at: now });

    if (locked.reply.status === 'queued') {
      // A review could only end in a refusal when the recipient opted out meanwhile: cancel instead of asking.
      const optedOut = await optedOutRefusal(tx, { orgId: f.orgId, clientId: locked.campaign.clientId, email: locked.reply.fromEmail });
      if (optedOut) return cancelOptedOut(tx, f, optedOut, trail, now);
      return toReview(tx, f, 'a draft for this reply waits in the review queue', trail, now);
    }
    const sent = await sendNow({ tx, deps, actor: followupActor(f.orgId), locked, body: f.body, originalSuggestion: null, edited: false, now });
    // Not a limit that passes: no retry, no review. The follow-up is over (sendNow wrote `send.blocked`).
    if (isRefused(sent) && sent.refused.code === 'recipient_opted_out') return cancelOptedOut(tx, f, sent.refused, trail, now);
    if (isRefused(sent) && sent.providerFailure?.outcome === 'unknown') {
      // The prospect may already have it (no idempotency key to ask the provider): trying again could send it twice.
      const why = `the sending provider did not confirm the message (${sent.providerFailure.error}); it may have been delivered, so a person must check before it is sent again`;
      return toReview(tx, f, why, trail, now, f.attempts + 1, { code: 'provider_error', outcome: 'unknown', provider: sent.providerFailure.kind });
    }
    if (isRefused(sent)) {
      const attempts = f.attempts + 1;
      if (sent.refused.code === 'provider_error' && attempts >= MAX_FOLLOWUP_ATTEMPTS) {
        return toReview(tx, f, `the sending provider failed ${attempts} times`, trail, now, attempts);
      }
      const retryAt = new Date(now.getTime() + retryDelayMs(sent.refused, attempts));
      const [row] = await tx
        .update(followups)
        .set({ attempts, reason: `not sent yet: ${sent.refused.code}; next try at ${retryAt.toISOString()}`, nextAttemptAt: retryAt, updatedAt: now })
        .where(eq(followups.id, f.id))
        .returning();
      await trail('followup.deferred', { code: sent.refused.code, attempt: attempts, retry_at: retryAt.toISOString() });
      await scheduleFollowup(deps.queue, f.id, retryAt, { tx });
      return { result: 'deferred' as const, row };
    }
    // A follow-up after our answer is a further message on the thread, not the answer: the reply keeps the time
    // it was answered (reports count answers by it).
    if (locked.reply.status === 'sent') await tx.update(replies).set({ sentAt: locked.reply.sentAt }).where(eq(replies.id, f.replyId));
    await tx.update(followups).set({ status: 'sent', attempts: f.attempts + 1, reason: null, nextAttemptAt: null, updatedAt: now }).where(eq(followups.id, f.id));
    await trail('followup.sent', { attempt: f.attempts + 1, sent_at: sent.sent_at });
    return { result: 'sent' as const };
  });
  if (outcome.result === 'deferred') await scheduleAfterCommit(deps.queue, deps.log, outcome.row);
  return outcome.result;
}

async function toReview(tx: Db, f: Followup, why: string, trail: (a: string, d: Record<string, unknown>) => Promise<void>, now: Date, attempts = f.attempts, detail: Record<string, unknown> = {}) {
  await tx.update(followups).set({ status: 'review', reason: why, attempts, nextAttemptAt: null, updatedAt: now }).where(eq(followups.id, f.id));
  await trail('followup.review', { reason: why, ...detail });
  return { result: 'review' as const };
}

async function cancelOptedOut(tx: Db, f: Followup, refusal: ApiError, trail: (a: string, d: Record<string, unknown>) => Promise<void>, now: Date) {
  const reason = `not sent: ${refusal.code} (${refusal.message})`;
  await tx.update(followups).set({ status: 'cancelled', reason, nextAttemptAt: null, updatedAt: now }).where(eq(followups.id, f.id));
  await trail('followup.cancelled', { code: refusal.code, previous_status: f.status, attempt: f.attempts + 1 });
  return { result: 'cancelled' as const };
}

/**
 * The catch-up for follow-ups whose job never arrived (a QStash publish that failed after the commit, a message
 * whose retries ran out): planned ones whose next try is overdue by `graceMs` are run here.
 */
export async function sweepFollowups(deps: FollowupDeps, opts: { graceMs?: number; limit?: number } = {}) {
  const cutoff = new Date(deps.clock.now().getTime() - (opts.graceMs ?? 60_000));
  const due = await deps.db
    .select({ id: followups.id })
    .from(followups)
    .where(and(eq(followups.status, 'planned'), lte(followups.nextAttemptAt, cutoff)))
    .orderBy(asc(followups.nextAttemptAt))
    .limit(opts.limit ?? 50);
  let ran = 0;
  for (const f of due) {
    // One that fails is logged and stays planned; it does not hold up the others.
    await runFollowup(deps, f.id).then(
      () => ran++,
      (err) => deps.log.warn('follow-up sweep: run failed', { followupId: f.id, error: errorText(err) }),
    );
  }
  return ran;
}
