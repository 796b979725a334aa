import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import { campaigns, clients, decisions, leads, replies } from '../../schema';
import type { Db } from '../db/types';
import { getCrmLead } from '../crm/get_lead';
import { PHASES } from '../crm/update_lead';
import { crmLeadView, crmScope, selectCrmLeads, type CrmLead, type CrmTenant } from '../crm/view';
import { CRM_CLASSIFICATIONS } from '../crm/visibility';
import { ApiError } from '../errors';
import { isUuid } from '../ids';
import { threadOfLead } from '../leads/thread';
import { parsePageNumber } from '../web/paging';

export const PORTAL_PAGE_SIZE = 50;

export type PortalFilters = { classification?: string; phase?: string; page: number };

/** The list page's query string, strictly: an unknown value is a message on the page, never an empty list. */
export function parsePortalFilters(query: Record<string, string | undefined>): PortalFilters {
  const f: PortalFilters = { page: 1 };
  const classification = query.classification?.trim();
  if (classification) {
    if (!(CRM_CLASSIFICATIONS as string[]).includes(classification)) throw new ApiError('validation_error', `Classification must be one of ${CRM_CLASSIFICATIONS.join(', ')}.`);
    f.classification = classification;
  }
  const phase = query.phase?.trim();
  if (phase) {
    if (!(PHASES as readonly string[]).includes(phase)) throw new ApiError('validation_error', `Phase must be one of ${PHASES.join(', ')}.`);
    f.phase = phase;
  }
  f.page = parsePageNumber(query.page);
  return f;
}

/**
 * The portal's lead list: the CRM API's visible leads (crmScope, the one visibility rule) newest activity first,
 * one page. The page's leads are then read through the CRM view itself, so each row is exactly the CRM lead.
 */
export async function listPortalLeads(db: Db, tenant: CrmTenant, filters: PortalFilters, portalUrl: string): Promise<{ leads: CrmLead[]; hasMore: boolean }> {
  const ids = await portalPageIds(db, tenant, filters);
  const pageIds = ids.slice(0, PORTAL_PAGE_SIZE).map((r) => r.id);
  if (pageIds.length === 0) return { leads: [], hasMore: false };
  const rows = await selectCrmLeads(db, tenant, { where: inArray(leads.id, pageIds), limit: pageIds.length });
  const byId = new Map(rows.map((r) => [r.id, crmLeadView(r, portalUrl)]));
  return { leads: pageIds.map((id) => byId.get(id)).filter((l): l is CrmLead => l !== undefined), hasMore: ids.length > PORTAL_PAGE_SIZE };
}

/** The ids of one page (and one more, to know whether another page follows), in the list's order. */
export function portalPageIds(db: Db, tenant: CrmTenant, filters: PortalFilters) {
  const where = [crmScope(tenant)];
  if (filters.classification) where.push(eq(leads.classification, filters.classification));
  if (filters.phase) where.push(eq(leads.phase, filters.phase));
  return db
    .select({ id: leads.id })
    .from(leads)
    .innerJoin(campaigns, eq(campaigns.id, leads.campaignId))
    .innerJoin(clients, eq(clients.id, campaigns.clientId))
    .where(and(...where))
    // The index's own order (schema/leads.ts), so the page is an index walk with no extra sort step.
    .orderBy(sql`${leads.lastActivityAt} desc nulls last`, sql`${leads.id} desc nulls last`)
    .limit(PORTAL_PAGE_SIZE + 1)
    .offset((filters.page - 1) * PORTAL_PAGE_SIZE);
}

export type ThreadEntry = { at: string; role: 'reply' | 'outbound'; content: string };
export type TrailEntry = { at: string; actor: string; action: string; detail: Record<string, unknown> };

/**
 * One lead's page: the CRM lead (the CRM API's read, so another client's or a hidden lead is 404), its whole
 * conversation in time order and its Decision Trail, both the lead's own entries and those of its replies.
 */
export async function portalLeadPage(db: Db, tenant: CrmTenant, leadId: string, portalUrl: string) {
  if (!isUuid(leadId)) throw new ApiError('not_found', 'There is no lead at this address.');
  const lead = await getCrmLead({ db, tenant, leadId, portalUrl });
  const thread = await threadOfLead(db, tenant.orgId, lead.id);
  const trail = await db
    .select({ at: decisions.at, actor: decisions.actor, action: decisions.action, detail: decisions.detail })
    .from(decisions)
    .where(
      and(
        eq(decisions.orgId, tenant.orgId),
        or(eq(decisions.leadId, lead.id), inArray(decisions.replyId, db.select({ id: replies.id }).from(replies).where(eq(replies.leadId, lead.id)))),
      ),
    )
    .orderBy(asc(decisions.at), asc(decisions.id));
  return {
    lead,
    thread: thread.map((m): ThreadEntry => ({ at: m.at.toISOString(), role: m.role, content: m.content })),
    trail: trail.map((d): TrailEntry => ({ at: d.at.toISOString(), actor: d.actor, action: d.action, detail: d.detail })),
  };
}
