// Which pool leads a waterfall run covers. Eligible: no email yet, status waiting_for_email, a person's name
// (first and last, or a full name of two words or more) and a company domain (the lead's domain or its website's
// host). Leads of another open run are left out, so two runs never search one lead at the same time.
import { and, asc, eq, gt, inArray, isNull } from 'drizzle-orm';
import { finderRuns, poolLeads } from '../../schema';
import type { Db } from '../db/types';
import { websiteHost } from '../pool/never_mail';
import type { PoolLeadRow } from '../pool/view';
import { nameParts } from '../ports/finder/sim';
import { leadsByIds } from '../pool/leads_by_id';

/** Rounds hand at most this many leads to the providers (agency-tools-and-bridge.md §8). */
export const ROUND_SIZE = 25;
/** One run covers at most this many leads (40 rounds); the rest wait for the next run. */
export const MAX_RUN_LEADS = 1000;

export type Skip = 'missing_inputs' | 'not_waiting' | 'in_other_run';

/** The company domain the finders search: the lead's domain, else its website's host. */
export function finderDomain(lead: Pick<PoolLeadRow, 'domain' | 'website'>): string | null {
  const d = lead.domain?.trim().toLowerCase().replace(/^www\./, '') || websiteHost(lead.website);
  return d && d.includes('.') ? d : null;
}

export const hasFinderInputs = (lead: PoolLeadRow) =>
  nameParts({ first_name: lead.firstName, last_name: lead.lastName, full_name: lead.fullName }) !== null && finderDomain(lead) !== null;

export const waitsForEmail = (lead: Pick<PoolLeadRow, 'email' | 'status'>) => lead.email === null && lead.status === 'waiting_for_email';

export type Selection = {
  /** In run order (oldest first). */
  eligible: PoolLeadRow[];
  skipped: { lead_id: string; reason: Skip }[];
  counts: { considered: number; eligible: number; missing_inputs: number; not_waiting: number; in_other_run: number };
  /** Eligible leads beyond MAX_RUN_LEADS (only without lead_ids): they wait for the next run. */
  beyondRun: number;
};

/**
 * Leads of this client's open runs (other than `exceptRunId`): a lead belongs to at most one open run. The whole
 * run counts, not only the leads past its cursor: those before it may be in a round that has not committed yet.
 */
async function leadsInOpenRuns(db: Db, orgId: string, clientId: string, now: Date, exceptRunId?: string): Promise<Set<string>> {
  const open = await db
    .select({ id: finderRuns.id, leadIds: finderRuns.leadIds })
    .from(finderRuns)
    .where(
      and(
        eq(finderRuns.orgId, orgId),
        eq(finderRuns.clientId, clientId),
        inArray(finderRuns.status, ['running', 'waiting_continue']),
        gt(finderRuns.expiresAt, now),
      ),
    );
  const ids = new Set<string>();
  for (const r of open) if (r.id !== exceptRunId) for (const id of r.leadIds) ids.add(id);
  return ids;
}

/**
 * The run's leads. With `leadIds` every id must be a lead of this client (else not_found naming them); without,
 * every lead of the pool waiting for an email, oldest first.
 */
export async function selectLeads(db: Db, q: { orgId: string; clientId: string; leadIds?: readonly string[]; now: Date; exceptRunId?: string }): Promise<Selection> {
  const tenant = and(eq(poolLeads.orgId, q.orgId), eq(poolLeads.clientId, q.clientId));
  let rows: PoolLeadRow[];
  if (q.leadIds) {
    rows = await leadsByIds(db, { orgId: q.orgId, clientId: q.clientId, leadIds: q.leadIds });
  } else {
    rows = await db
      .select()
      .from(poolLeads)
      .where(and(tenant, eq(poolLeads.status, 'waiting_for_email'), isNull(poolLeads.email)))
      .orderBy(asc(poolLeads.createdAt), asc(poolLeads.id));
  }
  const busy = await leadsInOpenRuns(db, q.orgId, q.clientId, q.now, q.exceptRunId);
  const eligible: PoolLeadRow[] = [];
  const skipped: Selection['skipped'] = [];
  for (const r of rows) {
    const reason: Skip | null = !waitsForEmail(r) ? 'not_waiting' : !hasFinderInputs(r) ? 'missing_inputs' : busy.has(r.id) ? 'in_other_run' : null;
    if (reason) skipped.push({ lead_id: r.id, reason });
    else eligible.push(r);
  }
  const count = (reason: Skip) => skipped.filter((s) => s.reason === reason).length;
  return {
    eligible,
    skipped,
    counts: { considered: rows.length, eligible: eligible.length, missing_inputs: count('missing_inputs'), not_waiting: count('not_waiting'), in_other_run: count('in_other_run') },
    beyondRun: Math.max(0, eligible.length - MAX_RUN_LEADS),
  };
}

