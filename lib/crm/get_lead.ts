import { and, eq } from 'drizzle-orm';
import { campaigns, clients, leads } from '../../schema';
import type { Db } from '../db/types';
import { notFound } from '../errors';
import { crmLeadView, crmScope, selectCrmLeads, type CrmLead, type CrmTenant } from './view';

/** GET /v1/crm/leads/{id}: a visible lead of the key's client; anything else (other tenant, hidden) is 404. */
export async function getCrmLead({ db, tenant, leadId, portalUrl }: { db: Db; tenant: CrmTenant; leadId: string; portalUrl: string }): Promise<CrmLead> {
  const [row] = await selectCrmLeads(db, tenant, { where: eq(leads.id, leadId), limit: 1 });
  if (!row) throw notFound('lead');
  return crmLeadView(row, portalUrl);
}

/**
 * Locks a visible lead of the tenant for a CRM write (FOR UPDATE: concurrent writers of one lead serialise, and
 * the visibility filter is re-checked on the row version that wins). Not visible is not found.
 */
export async function findCrmLeadForUpdate(tx: Db, tenant: CrmTenant, leadId: string) {
  const [row] = await tx
    .select({ lead: leads })
    .from(leads)
    .innerJoin(campaigns, eq(campaigns.id, leads.campaignId))
    .innerJoin(clients, eq(clients.id, campaigns.clientId))
    .where(and(eq(leads.id, leadId), crmScope(tenant)))
    .for('update', { of: [leads] })
    .limit(1);
  if (!row) throw notFound('lead');
  return row.lead;
}
