import { sql, type SQL } from 'drizzle-orm';
import type { AgreementKind } from '../../schema';
import { rows, type Db } from '../db/types';
import type { Counts } from './rule';

/** One agreement's counting window: [from, until), split at periodStart (instants in the org's timezone). */
export type CountWindow = { orgId: string; clientId: string; from: Date; periodStart: Date; until: Date };

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** The split count of events `at` from a set of (at) rows: the one query shape every kind uses. */
const split = (w: CountWindow, events: SQL) => sql`
  select count(*) filter (where e.at < ${ts(w.periodStart)})::int as before,
         count(*) filter (where e.at >= ${ts(w.periodStart)})::int as current
  from (${events}) e
  where e.at >= ${ts(w.from)} and e.at < ${ts(w.until)}`;

/** Leads added to the client's pool (not removed since): when each was added. */
const prospects = (w: CountWindow) => sql`
  select p.created_at as at from pool_leads p
  where p.org_id = ${w.orgId} and p.client_id = ${w.clientId} and p.status <> 'removed'
    and p.created_at >= ${ts(w.from)} and p.created_at < ${ts(w.until)}`;

/**
 * Prospects who replied to the client's campaigns, each once, at their first reply that is not an absence notice
 * (the campaign's own "replied" figure counts prospects the same way).
 */
const replies = (w: CountWindow) => sql`
  select min(r.received_at) as at from replies r
  join campaigns c on c.id = r.campaign_id
  where r.org_id = ${w.orgId} and c.org_id = ${w.orgId} and c.client_id = ${w.clientId}
    and r.classification is distinct from 'ooo' and r.received_at < ${ts(w.until)}
  group by r.lead_id`;

/**
 * Booked meetings: the rows the admin route records, and leads the CRM API moved on to a meeting stage (discovery
 * or later) without such a row, at their first such move. One per lead.
 */
const meetings = (w: CountWindow) => sql`
  select m.booked_at as at from meetings m
  where m.org_id = ${w.orgId} and m.client_id = ${w.clientId}
  union all
  select min(d.at) as at from decisions d
  join leads l on l.id = d.lead_id and l.org_id = ${w.orgId}
  join campaigns c on c.id = l.campaign_id and c.client_id = ${w.clientId}
  where d.org_id = ${w.orgId} and d.action = 'crm.lead_updated' and d.at < ${ts(w.until)}
    and d.detail -> 'to' ->> 'phase' in ('discovery', 'proposal', 'negotiation', 'won')
    and not exists (select 1 from meetings m2 where m2.lead_id = d.lead_id)
  group by d.lead_id`;

const SOURCES: Partial<Record<AgreementKind, (w: CountWindow) => SQL>> = {
  new_prospects_per_workday: prospects,
  replies_per_month: replies,
  meetings_per_month: meetings,
};

/** The kind's counts in the window; null for a kind the service has no data source for (custom). */
export async function countsFor(db: Db, kind: AgreementKind, w: CountWindow): Promise<Counts | null> {
  const source = SOURCES[kind];
  if (!source) return null;
  const [row] = await rows<{ before: number; current: number }>(db, split(w, source(w)));
  return { before: Number(row?.before ?? 0), current: Number(row?.current ?? 0) };
}
