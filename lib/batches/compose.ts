// Which pool leads a new batch may take, and why the others may not. One statement classifies every lead the
// filter holds (in pool order); the never-mail list is then checked for the rest in bulk (findNeverMail).
import { sql } from 'drizzle-orm';
import { batches, batchLeads, poolLeads, sequencerSnapshotEmails } from '../../schema';
import { rows as sqlRows, type Db } from '../db/types';
import { leadFilterWhere, type LeadFilter } from '../pool/filters';
import { findNeverMail } from '../pool/never_mail';
import { notContactedWhere } from '../pool/not_contacted';

/** Why a lead of the filter is left out, in the order checked (a lead counts under the first reason only). */
export const EXCLUSIONS = ['no_email', 'in_batch', 'rejected', 'sequencer_snapshot', 'contacted', 'never_mail'] as const;
export type Exclusion = (typeof EXCLUSIONS)[number];

export type Candidate = { id: string; email: string; name: string | null; company: string | null; title: string | null };
export type Composition = { chosen: Candidate[]; available: number; excluded: Record<Exclusion, number> };

type Row = { id: string; email: string | null; domain: string | null; website: string | null; name: string | null; company: string | null; title: string | null; reason: Exclusion | null };

const NEVER_MAIL_CHUNK = 2000;

/**
 * - `in_batch`: not rejected in a batch that is open or being pushed. A pushed batch's leads are `pushed`
 *   (contacted); those its push held back (never-mail) went back to `new` and may come again once unblocked;
 * - `rejected`: a person rejected it in review before, so it is not put in front of them again;
 * - `sequencer_snapshot`: in the sending tool's latest daily campaign snapshot;
 * - `contacted`: everything else "not contacted" (lib/pool/not_contacted) rules out: pushed, replied, removed.
 */
function reasonOf(scope: { orgId: string; clientId: string }) {
  return sql<Exclusion | null>`case
    when ${poolLeads.email} is null then 'no_email'
    when ${poolLeads.status} = 'in_batch' or exists (
      select 1 from ${batchLeads} bl join ${batches} b on b.id = bl.batch_id
      where bl.pool_lead_id = ${poolLeads.id} and bl.org_id = ${scope.orgId}::uuid and bl.review <> 'rejected' and b.status not in ('skipped', 'pushed')) then 'in_batch'
    when exists (select 1 from ${batchLeads} bl where bl.pool_lead_id = ${poolLeads.id} and bl.org_id = ${scope.orgId}::uuid and bl.review = 'rejected') then 'rejected'
    when exists (select 1 from ${sequencerSnapshotEmails} s where s.client_id = ${scope.clientId}::uuid and s.email = ${poolLeads.email}) then 'sequencer_snapshot'
    when not ${notContactedWhere(scope)} then 'contacted'
    else null end`;
}

/** The first `size` leads of the filter a batch may take (pool order), how many it could take, and the rest by reason. */
export async function composeBatch(db: Db, scope: { orgId: string; clientId: string }, filter: LeadFilter, size: number): Promise<Composition> {
  // Raw, so that every column in the CASE is qualified: in a select list drizzle leaves them bare, and a bare "id"
  // or "email" inside a subquery would name the subquery's own column.
  const rows = await sqlRows<Row>(
    db,
    sql`select ${poolLeads.id} as id, ${poolLeads.email} as email, ${poolLeads.domain} as domain, ${poolLeads.website} as website,
      coalesce(${poolLeads.fullName}, nullif(trim(concat_ws(' ', ${poolLeads.firstName}, ${poolLeads.lastName})), '')) as name,
      ${poolLeads.company} as company, ${poolLeads.title} as title, ${reasonOf(scope)} as reason
    from ${poolLeads} where ${leadFilterWhere(scope, filter)}
    order by ${poolLeads.createdAt} asc, ${poolLeads.id} asc`,
  );
  const excluded = Object.fromEntries(EXCLUSIONS.map((r) => [r, 0])) as Record<Exclusion, number>;
  const open: Row[] = [];
  for (const r of rows) {
    if (r.reason) excluded[r.reason]++;
    else open.push(r);
  }
  const eligible: Candidate[] = [];
  for (let i = 0; i < open.length; i += NEVER_MAIL_CHUNK) {
    const chunk = open.slice(i, i + NEVER_MAIL_CHUNK);
    const blocked = await findNeverMail(db, { ...scope, leads: chunk });
    chunk.forEach((r, j) => {
      if (blocked.has(j)) excluded.never_mail++;
      else eligible.push({ id: r.id, email: r.email!, name: r.name, company: r.company, title: r.title });
    });
  }
  return { chosen: eligible.slice(0, size), available: eligible.length, excluded };
}
