import { asc, eq } from 'drizzle-orm';
import { providerCampaigns } from '../../schema';
import { writeAudit } from '../agency/audit';
import { isUniqueViolation, type Db } from '../db/types';
import { ApiError } from '../errors';
import { requireOrg } from './admin';

// Campaigns that exist at the sending tool but are not imported yet (agency-operator.md §5). The owner's app
// records them; list_campaigns shows them and import_campaigns turns them into campaigns.

export type ProviderCampaignInput = { name: string; provider_campaign_id: string; status?: 'active' | 'paused' | 'completed' };

export const providerCampaignView = (p: typeof providerCampaigns.$inferSelect) => ({
  id: p.id,
  name: p.name,
  provider_campaign_id: p.providerCampaignId,
  status: p.status,
  imported: p.importedCampaignId !== null,
  imported_campaign_id: p.importedCampaignId,
  created_at: p.createdAt.toISOString(),
});

const duplicate = (id: string) => new ApiError('conflict', `provider_campaign_id: this organization already has a provider campaign with the id ${JSON.stringify(id)}`);

/** Records a provider campaign with its audit row; a provider id the organization already has is a 409. */
export async function createProviderCampaign(db: Db, orgId: string, input: ProviderCampaignInput, now: Date) {
  await requireOrg(db, orgId);
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(providerCampaigns)
        .values({ orgId, name: input.name, providerCampaignId: input.provider_campaign_id, status: input.status ?? 'active', createdAt: now })
        .returning();
      const view = providerCampaignView(row);
      await writeAudit(tx, {
        orgId,
        actor: 'admin',
        action: 'provider_campaign.created',
        target: `provider_campaign:${row.id}`,
        detail: { name: view.name, provider_campaign_id: view.provider_campaign_id, status: view.status },
        at: now,
      });
      return view;
    });
  } catch (err) {
    // The unique index decides, so two concurrent creates of one id give one 201 and one 409.
    if (isUniqueViolation(err, 'provider_campaigns_org_pcid_uq')) throw duplicate(input.provider_campaign_id);
    throw err;
  }
}

/** The organization's provider campaigns, oldest first (the order the sending tool listed them in). */
export async function listProviderCampaigns(db: Db, orgId: string) {
  await requireOrg(db, orgId);
  const found = await db.select().from(providerCampaigns).where(eq(providerCampaigns.orgId, orgId)).orderBy(asc(providerCampaigns.createdAt), asc(providerCampaigns.id));
  return found.map(providerCampaignView);
}
