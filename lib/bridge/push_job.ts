// The push job: works through a push's items, one POST per lead (agency-operator.md §7): at most 5 in flight, the
// never-mail list checked right before each post, a 429 honoured (Retry-After, else backoff) and the row retried,
// other failures retried three times and then recorded. Resumable: an item is claimed with a lease before it is
// posted and settled after, so a crash leaves it pending for the next run and a `sent` item is never posted again.
// A run does at most MAX_POSTS_PER_RUN posts and then schedules the next run, so a Worker invocation stays short.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { poolLeads, tablePushes, tablePushItems } from '../../schema';
import { rows } from '../db/types';
import { errorText } from '../log';
import { findNeverMail } from '../pool/never_mail';
import { poolLeadView, type PoolLeadRow } from '../pool/view';
import type { TablePostResult } from '../ports/table_tool/port';
import { forEachLimit } from '../queue/run';
import type { Services } from '../services';
import { loadTableDestination } from './destination';
import { TABLE_PUSH_JOB } from './push_job_kind';

export const MAX_IN_FLIGHT = 5;
export const MAX_POSTS_PER_RUN = 200;
/** The first try and three retries. */
export const MAX_FAILED_TRIES = 4;
const CLAIM_BATCH = 25;
/** A claimed item is this run's for this long: far more than one batch (25 posts, 5 at a time, ≤ 10 s each). */
const ITEM_LEASE_MS = 5 * 60_000;
/** One run per push at a time (the in-flight cap is per push): longer than a whole run can take. */
const RUN_LOCK_SEC = 15 * 60;
/** Backoff after a failed try (30 s, 60 s, 120 s) and after a 429 that named no Retry-After. */
export const retryDelaySec = (failedTries: number) => 30 * 2 ** Math.max(0, failedTries - 1);

type Item = { lead_id: string; attempts: number; last_error: string | null };
type Push = typeof tablePushes.$inferSelect;
export type PushRunResult = { posted: number; next: Date | null };

/** The body posted for a lead: the pool lead's fields, its custom columns beside them (a table maps top-level keys). */
export function tableRowOf(lead: PoolLeadRow): Record<string, unknown> {
  const { provenance: _provenance, contact_check: _check, custom, id, ...fields } = poolLeadView(lead);
  const extra = Object.fromEntries(Object.entries(custom).filter(([k]) => !(k in fields) && k !== 'lead_id'));
  return { lead_id: id, ...fields, ...extra };
}

export async function runTablePush(services: Services, pushId: string): Promise<PushRunResult> {
  const { db, clock, log } = services;
  const [push] = await db.select().from(tablePushes).where(eq(tablePushes.id, pushId));
  if (!push || push.status === 'done' || push.status === 'failed') return { posted: 0, next: null };
  const lock = `table_push_run:${push.id}`;
  const held = await services.limits.claimCooldown(lock, RUN_LOCK_SEC).catch((err) => {
    // Item leases still keep two runs from posting one lead; only the in-flight cap loosens while Redis is away.
    log.warn('table push run lock unavailable; running without it', { pushId, error: errorText(err) });
    return { ok: true as const };
  });
  if (!held.ok) return { posted: 0, next: null }; // another run is working on it and schedules what follows
  let result: PushRunResult;
  try {
    result = await runLocked(services, push);
  } finally {
    await services.limits.releaseCooldown(lock).catch(() => undefined);
  }
  // After the lock is released, or the next run could find it still held and stop.
  if (result.next) await services.queue.enqueue({ kind: TABLE_PUSH_JOB, payload: { push_id: push.id }, runAt: result.next, dedupeKey: `${TABLE_PUSH_JOB}:${push.id}:${result.next.getTime()}` });
  return result;
}

async function runLocked(services: Services, push: Push): Promise<PushRunResult> {
  const { db, clock } = services;
  const destination = await loadTableDestination(services, db, push.clientId);
  if (!destination) {
    await db.update(tablePushes).set({ status: 'failed', lastError: 'the client has no table destination any more', updatedAt: clock.now() }).where(eq(tablePushes.id, push.id));
    return { posted: 0, next: null };
  }
  if (push.status === 'queued') await db.update(tablePushes).set({ status: 'sending', updatedAt: clock.now() }).where(eq(tablePushes.id, push.id));

  let posted = 0;
  // Claimed items, posted or not: a run over thousands of suppressed leads is bounded as well.
  let handled = 0;
  // Set by a 429: read across awaits by every lane, so it lives in an object TS does not narrow.
  const pause: { until: Date | null } = { until: null };
  let lastError: string | null = null;
  while (handled < MAX_POSTS_PER_RUN && !pause.until) {
    // RETURNING keeps no order: sorted, a run posts in a predictable order (lead id).
    const items = (await claimItems(services, push.id, Math.min(CLAIM_BATCH, MAX_POSTS_PER_RUN - handled))).sort((a, b) => (a.lead_id < b.lead_id ? -1 : 1));
    if (items.length === 0) break;
    handled += items.length;
    const leads = await db
      .select()
      .from(poolLeads)
      .where(and(eq(poolLeads.clientId, push.clientId), inArray(poolLeads.id, items.map((i) => i.lead_id))));
    const byId = new Map(leads.map((l) => [l.id, l]));
    await forEachLimit(items, MAX_IN_FLIGHT, async (item) => {
      // Told to wait: the rest of the batch waits too (a 429 is about the destination, not one row).
      if (pause.until) return settle(services, push.id, item.lead_id, { notBefore: pause.until });
      const lead = byId.get(item.lead_id);
      if (!lead) {
        lastError = `lead ${item.lead_id}: no longer in the pool`;
        return settle(services, push.id, item.lead_id, { status: 'failed', lastError: 'the lead is no longer in the pool' });
      }
      const blocked = await findNeverMail(db, { orgId: push.orgId, clientId: push.clientId, leads: [lead] });
      const entry = blocked.get(0);
      if (entry) return settle(services, push.id, item.lead_id, { status: 'suppressed', lastError: `on the never-mail list (${entry.value})` });
      const outcome = await services.studio.tableTool
        .post(
          { db, resolveHost: services.resolveHost, allowPrivate: services.config.ALLOW_PRIVATE_WEBHOOK_URLS },
          {
            orgId: push.orgId,
            pushId: push.id,
            leadId: lead.id,
            url: destination.url,
            token: destination.token,
            body: tableRowOf(lead),
            attempt: item.attempts + 1,
            afterThrottle: item.last_error?.startsWith('throttled') ?? false,
          },
        )
        .catch((err): TablePostResult => ({ ok: false, throttled: false, error: `internal error: ${errorText(err)}` }));
      posted++;
      const now = clock.now();
      if (outcome.ok) return settle(services, push.id, item.lead_id, { status: 'sent', lastError: null });
      if (outcome.throttled) {
        const until = new Date(now.getTime() + (outcome.retryAfterSec ?? retryDelaySec(1)) * 1000);
        const current = pause.until as Date | null;
        if (!current || until > current) pause.until = until;
        return settle(services, push.id, item.lead_id, { notBefore: until, lastError: `throttled: ${outcome.error}` });
      }
      const tries = item.attempts + 1;
      if (tries >= MAX_FAILED_TRIES) {
        lastError = `lead ${lead.id}: ${outcome.error} (after ${tries} tries)`;
        return settle(services, push.id, item.lead_id, { status: 'failed', attempts: tries, lastError: outcome.error });
      }
      return settle(services, push.id, item.lead_id, { attempts: tries, notBefore: new Date(now.getTime() + retryDelaySec(tries) * 1000), lastError: outcome.error });
    });
    await refreshPush(services, push.id, lastError);
  }
  const pending = await refreshPush(services, push.id, lastError);
  if (pending.count === 0) return { posted, next: null };
  const now = clock.now();
  // More due now (the per-run cap): at once; otherwise when the earliest waiting item is due (a retry, a 429's wait).
  const next = pending.nextDue && pending.nextDue > now ? pending.nextDue : now;
  return { posted, next };
}

/** Leases up to `limit` due pending items of the push (FOR UPDATE SKIP LOCKED: two runs never take one item). */
async function claimItems(services: Services, pushId: string, limit: number): Promise<Item[]> {
  const now = services.clock.now();
  const lease = new Date(now.getTime() + ITEM_LEASE_MS).toISOString();
  return rows<Item>(
    services.db,
    sql`update table_push_items set not_before = ${lease}::timestamptz
        where push_id = ${pushId}::uuid and lead_id in (
          select lead_id from table_push_items
          where push_id = ${pushId}::uuid and status = 'pending' and (not_before is null or not_before <= ${now.toISOString()}::timestamptz)
          order by not_before nulls first, lead_id
          limit ${limit}
          for update skip locked)
        returning lead_id, attempts, last_error`,
  );
}

type Settle = { status?: 'sent' | 'failed' | 'suppressed'; attempts?: number; notBefore?: Date; lastError?: string | null };

/** Records one item's outcome; only a still-pending item changes (a settled one is never reopened). */
async function settle(services: Services, pushId: string, leadId: string, s: Settle) {
  await services.db
    .update(tablePushItems)
    .set({
      ...(s.status && { status: s.status, notBefore: null }),
      ...(s.attempts !== undefined && { attempts: s.attempts }),
      ...(s.notBefore && { notBefore: s.notBefore }),
      ...(s.lastError !== undefined && { lastError: s.lastError }),
    })
    .where(and(eq(tablePushItems.pushId, pushId), eq(tablePushItems.leadId, leadId), eq(tablePushItems.status, 'pending')));
}

/** Counts from the items (so a repeated run never double-counts); the status once nothing is pending. */
async function refreshPush(services: Services, pushId: string, lastError: string | null) {
  const [c] = await rows<{ sent: number; failed: number; suppressed: number; pending: number; next_due: string | Date | null }>(
    services.db,
    sql`select count(*) filter (where status = 'sent')::int as sent,
               count(*) filter (where status = 'failed')::int as failed,
               count(*) filter (where status = 'suppressed')::int as suppressed,
               count(*) filter (where status = 'pending')::int as pending,
               min(not_before) filter (where status = 'pending') as next_due
        from table_push_items where push_id = ${pushId}::uuid`,
  );
  const status = c.pending > 0 ? 'sending' : c.failed > 0 ? 'failed' : 'done';
  await services.db
    .update(tablePushes)
    .set({ sent: c.sent, failed: c.failed, suppressed: c.suppressed, status, ...(lastError !== null && { lastError }), updatedAt: services.clock.now() })
    .where(eq(tablePushes.id, pushId));
  return { count: c.pending, nextDue: c.next_due ? new Date(c.next_due) : null };
}

/**
 * Pushes with due items whose job went missing (a QStash publish that failed after commit, a run that crashed
 * between its lock and its next enqueue): a run for each. The run lock makes a surplus run a no-op.
 */
export async function sweepTablePushes(services: Services) {
  const now = services.clock.now();
  const stale = new Date(now.getTime() - 10 * 60_000).toISOString();
  const found = await rows<{ id: string }>(
    services.db,
    sql`select p.id from table_pushes p
        where p.status in ('queued', 'sending') and p.updated_at < ${stale}::timestamptz
          and exists (select 1 from table_push_items i where i.push_id = p.id and i.status = 'pending'
                      and (i.not_before is null or i.not_before <= ${now.toISOString()}::timestamptz))
        limit 100`,
  );
  if (found.length) await services.queue.enqueue(found.map((p) => ({ kind: TABLE_PUSH_JOB, payload: { push_id: p.id } })));
  return found.length;
}
