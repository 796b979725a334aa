// One round of a signals run, in three steps like the email waterfall's. (1) Read up to 25 pending items and check
// the round's charge can be paid (else the run waits for `continue`, nothing looked up). (2) Ask the enrichment
// port for each lead's signals with no transaction open (every call is logged in enrichment_calls as it returns).
// (3) One transaction, under the run's row lock: an item moves out of `pending` only once (UPDATE … WHERE status =
// 'pending'), its signals are stored (unique lead/kind/title: a signal found again is not duplicated), 1 credit is
// charged per lead with a signal found (reference per lead, kinds and UTC day: kinds.ts), the run's counters move
// and the audit row is written. A retried job, a concurrent round or a `continue` racing the queue can look a lead
// up twice but never store, count or charge it twice. A run stopped meanwhile keeps what was written and takes
// nothing from this round.
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { apiKeys, enrichRunItems, enrichRuns, leadSignals, poolLeads } from '../../schema';
import { writeAudit } from '../agency/audit';
import { creditsRemaining } from '../credits/balance';
import { balanceOf, chargeCredits } from '../credits/ledger';
import type { Db } from '../db/types';
import { ApiError } from '../errors';
import { EnrichmentRetryLater, type Signal, type SignalKind } from '../ports/enrichment/port';
import { forEachLimit } from '../queue/run';
import type { Services } from '../services';
import { chargeReference, signalDomain } from './kinds';
import { roundJob } from './run';
import { paidToday, ROUND_SIZE } from './selection';
import type { EnrichRunRow } from './view';

/** Provider lookups in flight at once within a round. */
const LOOKUPS_IN_FLIGHT = 5;

type ItemResult =
  | { leadId: string; outcome: 'found'; signals: Signal[] }
  | { leadId: string; outcome: 'empty' | 'skipped' }
  | { leadId: string; outcome: 'failed'; error: string }
  | { leadId: string; outcome: 'retry'; retryAfterSec: number };

export type RoundReport = {
  run: EnrichRunRow | null;
  /** Leads this round moved out of pending. */
  leads: number;
  written: number;
  credits: number;
  /** A provider asked to wait: the next round is queued this much later. */
  retryAfterSec: number | null;
};

export type RoundOptions = { orgId: string; runId: string; actor: string; now: Date; queueNext: boolean };

const isOpen = (r: EnrichRunRow) => r.status === 'running';

async function loadRun(db: Db, orgId: string, runId: string, lock = false) {
  const q = db.select().from(enrichRuns).where(and(eq(enrichRuns.id, runId), eq(enrichRuns.orgId, orgId), eq(enrichRuns.kind, 'signals')));
  const [run] = lock ? await q.for('update') : await q;
  return run ?? null;
}

async function keyOf(db: Db, run: EnrichRunRow) {
  if (!run.keyId) return null;
  const [k] = await db.select({ id: apiKeys.id, dailyCreditLimit: apiKeys.dailyCreditLimit }).from(apiKeys).where(eq(apiKeys.id, run.keyId));
  return k ? { keyId: k.id, dailyCreditLimit: k.dailyCreditLimit } : null;
}

/** Puts a running run on hold (credits ran out): a person tops up, then get_run's continue resumes it. */
async function hold(services: Services, o: RoundOptions, reason: string): Promise<RoundReport> {
  const run = await services.db.transaction(async (tx) => {
    const [r] = await tx
      .update(enrichRuns)
      .set({ status: 'waiting_continue', lastError: reason, updatedAt: o.now })
      .where(and(eq(enrichRuns.id, o.runId), eq(enrichRuns.orgId, o.orgId), eq(enrichRuns.status, 'running')))
      .returning();
    if (r) await writeAudit(tx, { orgId: o.orgId, actor: o.actor, action: 'signals.round', target: `client:${r.clientId}`, detail: { run_id: r.id, held: reason, run_status: r.status }, credits: 0, at: o.now });
    return r ?? null;
  });
  return { run: run ?? (await loadRun(services.db, o.orgId, o.runId)), leads: 0, written: 0, credits: 0, retryAfterSec: null };
}

export async function runSignalsRound(services: Services, o: RoundOptions): Promise<RoundReport> {
  const { db } = services;
  const run = await loadRun(db, o.orgId, o.runId);
  if (!run || !isOpen(run)) return { run, leads: 0, written: 0, credits: 0, retryAfterSec: null };
  const kinds = (run.signalKinds ?? []) as SignalKind[];
  const items = await db
    .select({ leadId: enrichRunItems.leadId })
    .from(enrichRunItems)
    .where(and(eq(enrichRunItems.runId, run.id), eq(enrichRunItems.status, 'pending')))
    .orderBy(asc(enrichRunItems.position))
    .limit(ROUND_SIZE);
  if (items.length === 0) return commitRound(services, o, []);

  // The round's most: every lead not already paid today for these kinds finds a signal.
  const ids = items.map((i) => i.leadId);
  const needed = ids.length - (await paidToday(db, o.orgId, ids, kinds, o.now)).size;
  const balance = await balanceOf(db, o.orgId);
  if (balance < needed) return hold(services, o, `insufficient_credits: this round can charge up to ${needed} credits and the organization has ${balance}; nothing was looked up`);
  const key = await keyOf(db, run);
  if (key && needed > 0 && (await creditsRemaining(db, key, o.now)) < needed) {
    return hold(services, o, `daily_credit_limit_exceeded: this round can charge up to ${needed} credits and the key's daily credit limit of ${key.dailyCreditLimit} does not allow it today`);
  }

  const leads = await db
    .select()
    .from(poolLeads)
    .where(and(eq(poolLeads.orgId, o.orgId), eq(poolLeads.clientId, run.clientId), inArray(poolLeads.id, ids)));
  const byId = new Map(leads.map((l) => [l.id, l]));
  const ctx = { db, orgId: o.orgId, now: o.now };
  const results: ItemResult[] = [];
  await forEachLimit(ids, LOOKUPS_IN_FLIGHT, async (leadId) => {
    const lead = byId.get(leadId);
    const domain = lead && lead.status !== 'removed' ? signalDomain(lead) : null;
    if (!domain) {
      results.push({ leadId, outcome: 'skipped' });
      return;
    }
    try {
      const found = await services.studio.enrichment.signals(ctx, domain, kinds);
      results.push(found.length > 0 ? { leadId, outcome: 'found', signals: found } : { leadId, outcome: 'empty' });
    } catch (err) {
      if (err instanceof EnrichmentRetryLater) results.push({ leadId, outcome: 'retry', retryAfterSec: err.retryAfterSec });
      else results.push({ leadId, outcome: 'failed', error: err instanceof Error ? err.message.slice(0, 300) : String(err) });
    }
  });
  return commitRound(services, o, results);
}

async function commitRound(services: Services, o: RoundOptions, results: ItemResult[]): Promise<RoundReport> {
  const { db, queue } = services;
  const retries = results.filter((r): r is Extract<ItemResult, { outcome: 'retry' }> => r.outcome === 'retry');
  const retryAfterSec = retries.length ? Math.max(...retries.map((r) => r.retryAfterSec)) : null;
  const report = await db.transaction(async (tx): Promise<RoundReport & { queue: boolean }> => {
    const run = await loadRun(tx, o.orgId, o.runId, true);
    if (!run || !isOpen(run)) return { run, leads: 0, written: 0, credits: 0, retryAfterSec: null, queue: false };
    const kinds = (run.signalKinds ?? []) as SignalKind[];
    const key = await keyOf(tx, run);
    let credits = 0;
    let written = 0;
    let moved = 0;
    let skipped = 0;
    let held: string | null = null;
    const outcomes: Record<string, number> = {};
    const take = (leadId: string, status: 'written' | 'empty' | 'skipped' | 'failed', db: Db = tx) =>
      db
        .update(enrichRunItems)
        .set({ status })
        .where(and(eq(enrichRunItems.runId, run.id), eq(enrichRunItems.leadId, leadId), eq(enrichRunItems.status, 'pending')))
        .returning({ leadId: enrichRunItems.leadId });
    for (const r of results) {
      if (r.outcome === 'retry') continue;
      if (r.outcome !== 'found') {
        if ((await take(r.leadId, r.outcome)).length === 0) continue;
        moved++;
        if (r.outcome === 'skipped') skipped++;
        outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
        continue;
      }
      if (held) continue;
      try {
        // A savepoint per lead: a lead whose charge is refused rolls back alone (its item stays pending).
        const charged = await tx.transaction(async (sp) => {
          if ((await take(r.leadId, 'written', sp)).length === 0) return null;
          await sp
            .insert(leadSignals)
            .values(
              r.signals.map((s) => ({
                orgId: o.orgId,
                clientId: run.clientId,
                leadId: r.leadId,
                kind: s.kind,
                title: s.title.slice(0, 500),
                detail: s.detail ?? {},
                source: s.source,
                happenedOn: s.happened_on,
                runId: run.id,
                foundAt: o.now,
              })),
            )
            .onConflictDoNothing({ target: [leadSignals.leadId, leadSignals.kind, leadSignals.title] });
          const c = await chargeCredits(sp, { orgId: o.orgId, key, reference: chargeReference(r.leadId, kinds, o.now), amount: 1, reason: 'run_signals', now: o.now });
          if (c.charged) await sp.update(enrichRunItems).set({ credits: 1 }).where(and(eq(enrichRunItems.runId, run.id), eq(enrichRunItems.leadId, r.leadId)));
          return c.charged ? 1 : 0;
        });
        if (charged === null) continue;
        moved++;
        written++;
        credits += charged;
        outcomes.found = (outcomes.found ?? 0) + 1;
      } catch (err) {
        if (err instanceof ApiError && (err.code === 'insufficient_credits' || err.code === 'daily_credit_limit_exceeded')) held = `${err.code}: ${err.message}`;
        else throw err;
      }
    }
    const [{ pending }] = await tx
      .select({ pending: count() })
      .from(enrichRunItems)
      .where(and(eq(enrichRunItems.runId, run.id), eq(enrichRunItems.status, 'pending')));
    const [{ failed }] = await tx
      .select({ failed: count() })
      .from(enrichRunItems)
      .where(and(eq(enrichRunItems.runId, run.id), eq(enrichRunItems.status, 'failed')));
    const status = held ? 'waiting_continue' : Number(pending) > 0 ? 'running' : Number(failed) === run.total && run.total > 0 ? 'failed' : 'done';
    const [after] = await tx
      .update(enrichRuns)
      .set({
        status,
        processed: run.processed + moved,
        written: run.written + written,
        skipped: run.skipped + skipped,
        credits: run.credits + credits,
        lastError: held ?? (outcomes.failed ? results.find((r): r is Extract<ItemResult, { outcome: 'failed' }> => r.outcome === 'failed')!.error : run.lastError),
        updatedAt: o.now,
      })
      .where(eq(enrichRuns.id, run.id))
      .returning();
    if (results.length > 0 || status !== run.status) {
      await writeAudit(tx, {
        orgId: o.orgId,
        actor: o.actor,
        action: 'signals.round',
        target: `client:${run.clientId}`,
        detail: { run_id: run.id, leads: moved, found: written, outcomes, retried: retries.length, run_status: status },
        credits,
        at: o.now,
      });
    }
    const next = o.queueNext && status === 'running';
    if (next && queue.transactional) await queue.enqueue(nextRound(o, retries.length === results.length ? retryAfterSec : null), { tx });
    return { run: after, leads: moved, written, credits, retryAfterSec, queue: next && !queue.transactional };
  });
  if (report.queue) await queue.enqueue(nextRound(o, retries.length === results.length ? retryAfterSec : null));
  const { queue: _, ...out } = report;
  return out;
}

/** The next round: now, or after the provider's Retry-After when every lead of this round was asked to wait. */
const nextRound = (o: RoundOptions, waitSec: number | null) => roundJob(o.runId, o.orgId, waitSec ? new Date(o.now.getTime() + waitSec * 1000) : undefined);
