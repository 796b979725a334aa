// Which pool leads a signals run (or its estimate) covers. Eligible: a company domain to look up (the lead's domain
// or its website's host) and not waiting in another open signals run of this client. Leads already charged today
// for the same kinds are eligible (their signals are refreshed) but cost nothing: they are counted apart.
import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import { creditLedger, enrichRunItems, enrichRuns, poolLeads } from '../../schema';
import type { Db } from '../db/types';
import type { PoolLeadRow } from '../pool/view';
import type { SignalKind } from '../ports/enrichment/port';
import { chargeReference, signalDomain } from './kinds';
import { leadsByIds } from '../pool/leads_by_id';

/** Leads a round hands to the provider. */
export const ROUND_SIZE = 25;
/** One run covers at most this many leads; the rest wait for the next run. */
export const MAX_RUN_LEADS = 1000;

export type Skip = 'no_domain' | 'in_other_run';

export type SignalsSelection = {
  /** In run order (oldest first, or the order of lead_ids). */
  eligible: PoolLeadRow[];
  skipped: { lead_id: string; reason: Skip }[];
  counts: { considered: number; eligible: number; no_domain: number; in_other_run: number };
  /** Eligible leads (within the run) already charged today for these kinds. */
  paidToday: Set<string>;
  beyondRun: number;
};

async function leadsInOpenRuns(db: Db, orgId: string, clientId: string, exceptRunId?: string): Promise<Set<string>> {
  const open = await db
    .select({ leadId: enrichRunItems.leadId, runId: enrichRunItems.runId })
    .from(enrichRunItems)
    .innerJoin(enrichRuns, eq(enrichRuns.id, enrichRunItems.runId))
    .where(
      and(
        eq(enrichRuns.orgId, orgId),
        eq(enrichRuns.clientId, clientId),
        eq(enrichRuns.kind, 'signals'),
        inArray(enrichRuns.status, ['running', 'waiting_continue']),
        eq(enrichRunItems.status, 'pending'),
      ),
    );
  return new Set(open.filter((r) => r.runId !== exceptRunId).map((r) => r.leadId));
}

/** References of these leads' charges for `kinds` today that the ledger already holds. */
export async function paidToday(db: Db, orgId: string, leadIds: readonly string[], kinds: readonly SignalKind[], now: Date): Promise<Set<string>> {
  if (leadIds.length === 0) return new Set();
  const byRef = new Map(leadIds.map((id) => [chargeReference(id, kinds, now), id]));
  const found = await db
    .select({ reference: creditLedger.reference })
    .from(creditLedger)
    .where(and(eq(creditLedger.orgId, orgId), inArray(creditLedger.reference, [...byRef.keys()])));
  return new Set(found.map((r) => byRef.get(r.reference)!));
}

/**
 * The leads. With `leadIds` every id must be a lead of this client (else not_found naming them); without, every
 * lead of the pool that is not removed, oldest first.
 */
export async function selectSignalLeads(
  db: Db,
  q: { orgId: string; clientId: string; leadIds?: readonly string[]; kinds: readonly SignalKind[]; now: Date; exceptRunId?: string },
): Promise<SignalsSelection> {
  const tenant = and(eq(poolLeads.orgId, q.orgId), eq(poolLeads.clientId, q.clientId));
  let rows: PoolLeadRow[];
  if (q.leadIds) {
    rows = await leadsByIds(db, { orgId: q.orgId, clientId: q.clientId, leadIds: q.leadIds });
  } else {
    rows = await db.select().from(poolLeads).where(and(tenant, ne(poolLeads.status, 'removed'))).orderBy(asc(poolLeads.createdAt), asc(poolLeads.id));
  }
  const busy = await leadsInOpenRuns(db, q.orgId, q.clientId, q.exceptRunId);
  const eligible: PoolLeadRow[] = [];
  const skipped: SignalsSelection['skipped'] = [];
  for (const r of rows) {
    const reason: Skip | null = signalDomain(r) === null ? 'no_domain' : busy.has(r.id) ? 'in_other_run' : null;
    if (reason) skipped.push({ lead_id: r.id, reason });
    else eligible.push(r);
  }
  const inRun = eligible.slice(0, MAX_RUN_LEADS);
  const count = (reason: Skip) => skipped.filter((s) => s.reason === reason).length;
  return {
    eligible: inRun,
    skipped,
    counts: { considered: rows.length, eligible: eligible.length, no_domain: count('no_domain'), in_other_run: count('in_other_run') },
    paidToday: await paidToday(db, q.orgId, inRun.map((l) => l.id), q.kinds, q.now),
    beyondRun: Math.max(0, eligible.length - MAX_RUN_LEADS),
  };
}
