import { and, asc, desc, eq, isNull, type SQL } from 'drizzle-orm';
import { campaigns, clients, providerCampaigns } from '../../../schema';
import { findClient } from '../clients/view';
import type { AgencyCall } from '../operation';
import { agencyCampaignView, notImportedView } from './view';

export type ListCampaignsInput = { client_id?: string; status?: 'active' | 'paused' | 'completed' };

/**
 * list_campaigns: the organization's campaigns, newest first (as GET /v1/campaigns), narrowed to one client and/or
 * a status; and the sending tool's campaigns not imported yet, oldest first. Those belong to no client yet, so the
 * client filter leaves them listed: they are what import_campaigns can bring into that client.
 */
export async function listAgencyCampaigns(call: AgencyCall, input: ListCampaignsInput) {
  const { db } = call.services;
  const { orgId } = call.auth;
  if (input.client_id) await findClient(db, orgId, input.client_id);
  const where: SQL[] = [eq(campaigns.orgId, orgId)];
  if (input.client_id) where.push(eq(campaigns.clientId, input.client_id));
  if (input.status) where.push(eq(campaigns.status, input.status));
  const pending: SQL[] = [eq(providerCampaigns.orgId, orgId), isNull(providerCampaigns.importedCampaignId)];
  if (input.status) pending.push(eq(providerCampaigns.status, input.status));
  const [own, notImported] = await Promise.all([
    db
      .select({ c: campaigns, client: { id: clients.id, name: clients.name } })
      .from(campaigns)
      .leftJoin(clients, eq(clients.id, campaigns.clientId))
      .where(and(...where))
      .orderBy(desc(campaigns.createdAt), asc(campaigns.id)),
    db
      .select()
      .from(providerCampaigns)
      .where(and(...pending))
      .orderBy(asc(providerCampaigns.createdAt), asc(providerCampaigns.providerCampaignId)),
  ]);
  return {
    campaigns: own.map((r) => agencyCampaignView(r.c, r.client?.id ? r.client : null)),
    not_imported: notImported.map(notImportedView),
  };
}
