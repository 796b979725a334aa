import { gte } from 'drizzle-orm';
import { leads } from '../../schema';
import type { Db } from '../db/types';
import { ApiError } from '../errors';
import { awaitCommittedStamps } from './change_clock';
import { decodeCursor, encodeCursor, normalizeFilters, sameFilters, type ListFilters } from './cursor';
import { crmLeadView, selectCrmLeads, type CrmLead, type CrmLeadRow, type CrmTenant } from './view';

export const CRM_PAGE_DEFAULT = 50;
export const CRM_PAGE_MAX = 200;

export type ListCrmLeadsInput = ListFilters & { cursor?: string; limit: number };

export type CrmLeadPage = {
  leads: CrmLead[];
  next_cursor: string | null;
  has_more: boolean;
  /**
   * The database's time when the page was read (change_clock.ts): every change it does not show is stamped at or
   * after it. A sync run stores its first page's and passes it as `updated_since` next run.
   */
  server_time: string;
  /** Leads the page examined before the per-lead filters (≥ leads.length): what the page cost. */
  examined: number;
};

const matches = (row: CrmLeadRow, f: ListFilters) =>
  (!f.classification || f.classification.includes(row.classification ?? '')) &&
  (!f.phase || f.phase.includes(row.phase)) &&
  (f.has_next_action === undefined || (row.nextAction !== null) === f.has_next_action);

/**
 * GET /v1/crm/leads (core §4, CRM rules 1 and 2). Keyset pages over the visible leads in id order: a lead's id
 * never changes, so following `next_cursor` until `has_more` is false returns every lead that stays visible
 * exactly once, whatever changes meanwhile, and the last page costs what the first does (no OFFSET).
 * - `updated_since` narrows the keyset itself (index on org, updated_at), so an incremental run reads only what
 *   changed: exactly the leads with `updated_at >= updated_since`, not widened for anyone's clock. Clients pass the
 *   `server_time` their previous run's first page answered, which the change clock guarantees misses nothing.
 * - `classification`, `phase`, `has_next_action` apply per lead after paging: a page may be short or empty while
 *   `has_more` is true.
 * - Each page is read only once every change stamped before it has committed (change_clock.ts), which is what
 *   makes "store the first page's server_time, pass it as updated_since next time" lose nothing.
 */
export async function listCrmLeads({ db, tenant, input, portalUrl }: { db: Db; tenant: CrmTenant; input: ListCrmLeadsInput; portalUrl: string }): Promise<CrmLeadPage> {
  const { cursor, limit, ...given } = input;
  let filters = normalizeFilters(given);
  let after: string | undefined;
  if (cursor) {
    const decoded = decodeCursor(cursor);
    if (Object.keys(filters).length > 0 && !sameFilters(filters, decoded.filters)) {
      throw new ApiError('validation_error', 'cursor: was issued for other filters (pass the same filters, or none, with next_cursor)');
    }
    filters = decoded.filters;
    after = decoded.after;
  }
  const floor = filters.updated_since ? new Date(filters.updated_since) : undefined;
  const serverTime = await awaitCommittedStamps(db, tenant.orgId);
  const rows = await selectCrmLeads(db, tenant, { where: floor ? gte(leads.updatedAt, floor) : undefined, afterId: after, limit: limit + 1 });
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  return {
    leads: page.filter((r) => matches(r, filters)).map((r) => crmLeadView(r, portalUrl)),
    next_cursor: hasMore ? encodeCursor(page[page.length - 1].id, filters) : null,
    has_more: hasMore,
    server_time: serverTime.toISOString(),
    examined: page.length,
  };
}
