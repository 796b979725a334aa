import { and, asc, eq, gt, sql, type SQL } from 'drizzle-orm';
import { campaigns, clients, leads } from '../../schema';
import type { Deal, NextAction } from '../../schema';
import { iso, type Db } from '../db/types';
import { companyDomain, displayName } from './company';
import { visibleSql } from './visibility';

/** A CRM caller: always one organization and one client (the API is for client-locked keys only). */
export type CrmTenant = { orgId: string; clientId: string };

export type CrmNote = { at: string; by: string; text: string };

/** The CRM lead of core §2, field for field. */
export type CrmLead = {
  id: string;
  email: string;
  name: string | null;
  company: { name: null; domain: string | null };
  campaign: { id: string; name: string };
  classification: string;
  phase: string;
  deal: Deal | null;
  next_action: NextAction | null;
  notes: CrmNote[];
  last_activity_at: string | null;
  reply_count: number;
  thread_url: string;
  updated_at: string;
  crm_updated_at: string | null;
};

/** The tenant and visibility filter every CRM read carries: org, the key's client, the client's portal. */
export const crmScope = (t: CrmTenant): SQL => and(eq(leads.orgId, t.orgId), eq(campaigns.clientId, t.clientId), visibleSql(leads.classification, clients.portal))!;

const leadColumns = {
  id: leads.id,
  email: leads.email,
  name: leads.name,
  classification: leads.classification,
  phase: leads.phase,
  deal: leads.deal,
  nextAction: leads.nextAction,
  legacyNotes: leads.notes,
  replyCount: leads.replyCount,
  lastReplyAt: leads.lastReplyAt,
  createdAt: leads.createdAt,
  updatedAt: leads.updatedAt,
  crmUpdatedAt: leads.crmUpdatedAt,
  campaignId: campaigns.id,
  campaignName: campaigns.name,
  // Activity is the conversation: the latest reply or message we sent, kept on the lead where thread_messages are
  // written (ingest, send), so the CRM list and the portal's order read one column.
  lastActivityAt: leads.lastActivityAt,
  crmNotes: sql<Array<{ at: string; by: string; text: string }>>`(
    select coalesce(json_agg(json_build_object('at', n.at, 'by', n.by, 'text', n.text) order by n.at, n.id), '[]'::json)
    from crm_notes n where n.lead_id = ${leads.id})`,
};

export type CrmLeadRow = Awaited<ReturnType<typeof selectCrmLeads>>[number];

/**
 * Visible leads of the tenant in id order (the CRM list's keyset), one statement with their notes and last
 * activity. `where` narrows further (one id, `updated_at` ≥ a floor); `afterId` is the keyset position.
 */
export function selectCrmLeads(db: Db, tenant: CrmTenant, opts: { where?: SQL; afterId?: string; limit: number }) {
  const conditions = [crmScope(tenant)];
  if (opts.where) conditions.push(opts.where);
  if (opts.afterId) conditions.push(gt(leads.id, opts.afterId));
  return db
    .select(leadColumns)
    .from(leads)
    .innerJoin(campaigns, eq(campaigns.id, leads.campaignId))
    .innerJoin(clients, eq(clients.id, campaigns.clientId))
    .where(and(...conditions))
    .orderBy(asc(leads.id))
    .limit(opts.limit);
}

export function crmLeadView(row: CrmLeadRow, portalUrl: string): CrmLead {
  const legacy: CrmNote[] = row.legacyNotes?.trim() ? [{ at: row.createdAt.toISOString(), by: 'legacy', text: row.legacyNotes }] : [];
  const notes = (row.crmNotes ?? []).map((n) => ({ at: iso(n.at)!, by: n.by, text: n.text }));
  return {
    id: row.id,
    email: row.email,
    name: displayName(row.name),
    company: { name: null, domain: companyDomain(row.email) },
    campaign: { id: row.campaignId, name: row.campaignName },
    classification: row.classification!,
    phase: row.phase,
    deal: row.deal ?? null,
    next_action: row.nextAction ?? null,
    notes: [...legacy, ...notes],
    last_activity_at: iso(row.lastActivityAt) ?? iso(row.lastReplyAt),
    reply_count: row.replyCount,
    thread_url: `${portalUrl}/leads/${row.id}`,
    updated_at: row.updatedAt.toISOString(),
    crm_updated_at: iso(row.crmUpdatedAt),
  };
}
