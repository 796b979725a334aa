import { and, eq, sql } from 'drizzle-orm';
import { icps, poolColumns, poolLeads } from '../../schema';
import { findClient } from '../agency/clients/view';
import type { AgencyCall } from '../agency/operation';
import type { Db } from '../db/types';
import { ApiError, notFound } from '../errors';
import { leadFilterWhere, poolOrder, type LeadFilter } from './filters';
import { contactCheckOf, snapshotDayColumn } from './not_contacted';
import { poolLeadView, type PoolLead } from './view';

export type Page = { limit: number; offset: number; columns?: string[] };

/**
 * The filter's references checked against the tenant: an ICP of another client or organization is not_found, like
 * any other id of theirs. Called by every verb that takes a filter (list, segment save and results).
 */
export async function checkFilter(db: Db, scope: { orgId: string; clientId: string }, f: LeadFilter) {
  if (!f.icp_id) return;
  const [icp] = await db
    .select({ id: icps.id })
    .from(icps)
    .where(and(eq(icps.id, f.icp_id), eq(icps.clientId, scope.clientId), eq(icps.orgId, scope.orgId)));
  if (!icp) throw notFound('ICP');
}

/** The keys of `columns` must be columns of this client's pool; the first unknown one is named. */
export async function checkColumns(db: Db, clientId: string, keys: readonly string[]) {
  if (keys.length === 0) return;
  const known = await db
    .select({ key: poolColumns.key })
    .from(poolColumns)
    .where(and(eq(poolColumns.clientId, clientId), sql`${poolColumns.key} = any(${sql.param([...keys])}::text[])`));
  const have = new Set(known.map((k) => k.key));
  const unknown = keys.find((k) => !have.has(k));
  if (unknown) throw new ApiError('validation_error', `columns: ${JSON.stringify(unknown)} is not a column of this client's pool`);
}

const narrow = (lead: PoolLead, keys: readonly string[] | undefined): PoolLead =>
  keys ? { ...lead, custom: Object.fromEntries(keys.map((k) => [k, lead.custom[k] ?? null])) } : lead;

/**
 * One page of a client's pool under a filter, in a stable order (created_at, id), with next_offset null on the
 * last page. The filter is one statement: with not_contacted the same statement reads the snapshot's day, so the
 * contact_check it reports is the state the rows were selected under.
 */
export async function pagePoolLeads(db: Db, scope: { orgId: string; clientId: string }, filter: LeadFilter, page: Page) {
  const fetched = await db
    .select({ lead: poolLeads, snapshotDay: filter.not_contacted ? snapshotDayColumn(scope.clientId) : sql<null>`null` })
    .from(poolLeads)
    .where(leadFilterWhere(scope, filter))
    .orderBy(...poolOrder)
    .limit(page.limit + 1)
    .offset(page.offset);
  const more = fetched.length > page.limit;
  const leads = fetched.slice(0, page.limit).map((r) => narrow(poolLeadView(r.lead, filter.not_contacted ? contactCheckOf(r.snapshotDay) : undefined), page.columns));
  return { leads, next_offset: more ? page.offset + page.limit : null };
}

/** How many leads of the pool a filter holds (segments and ICPs show it). */
export async function countPoolLeads(db: Db, scope: { orgId: string; clientId: string }, filter: LeadFilter): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(poolLeads).where(leadFilterWhere(scope, filter));
  return Number(row.n);
}

/** list_leads: the client's pool, filtered and paged. */
export async function listLeads(call: AgencyCall, input: LeadFilter & Page & { client_id: string }) {
  const { db } = call.services;
  const scope = { orgId: call.auth.orgId, clientId: input.client_id };
  await findClient(db, scope.orgId, scope.clientId);
  await checkFilter(db, scope, input);
  await checkColumns(db, scope.clientId, input.columns ?? []);
  return pagePoolLeads(db, scope, input, input);
}
