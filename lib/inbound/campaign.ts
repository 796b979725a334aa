import { and, eq, isNull, sql } from 'drizzle-orm';
import { campaigns } from '../../schema';
import type { Db } from '../db/types';
import { ApiError } from '../errors';

type Found = { id: string; name: string; created: boolean };
const columns = { id: campaigns.id, name: campaigns.name };

/**
 * The campaign a sending tool's reply belongs to, inside the ingestion transaction:
 * 1. ours whose provider_campaign_id is the tool's campaign id;
 * 2. else ours of the same name (case-insensitive) without a provider id yet (made by hand): it learns the id;
 * 3. else a new campaign under the tool's name (and id).
 * Replies of one new campaign arrive together, so steps 2-3 run under a transaction-scoped advisory lock on the
 * organization and the tool's campaign id (or name): one campaign is created, never two. The common case (step 1
 * finds it) takes no lock.
 */
export async function resolveCampaign(tx: Db, a: { orgId: string; campaign: { id?: string | null; name?: string | null }; now: Date }): Promise<Found> {
  const providerId = a.campaign.id?.trim() || null;
  const name = a.campaign.name?.trim().slice(0, 200) || null;
  if (!providerId && !name) throw new ApiError('unknown_campaign', 'campaign: the delivery names neither a campaign id nor a campaign name');

  if (providerId) {
    const found = await byProviderId(tx, a.orgId, providerId);
    if (found) return found;
  }
  if (!name) {
    throw new ApiError(
      'unknown_campaign',
      `campaign: no campaign of this organization has provider_campaign_id ${JSON.stringify(providerId)}, and the delivery gives no campaign name to create it under (set provider_campaign_id on the campaign through the admin API, or send campaign.name)`,
    );
  }
  // Keyed by the provider id when there is one (its unique index must never be raced into a 500), else by name.
  const lockKey = providerId ? `campaign:${a.orgId}:id:${providerId}` : `campaign:${a.orgId}:name:${name.toLowerCase()}`;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${lockKey}, 0))`);
  if (providerId) {
    // Created by a delivery that held the lock before us.
    const found = await byProviderId(tx, a.orgId, providerId);
    if (found) return found;
  }
  const [byName] = await tx
    .select(columns)
    .from(campaigns)
    .where(and(eq(campaigns.orgId, a.orgId), sql`lower(${campaigns.name}) = lower(${name})`, providerId ? isNull(campaigns.providerCampaignId) : undefined))
    .orderBy(campaigns.createdAt, campaigns.id)
    .limit(1);
  if (byName) {
    if (providerId) await tx.update(campaigns).set({ providerCampaignId: providerId }).where(eq(campaigns.id, byName.id));
    return { ...byName, created: false };
  }
  const [created] = await tx
    .insert(campaigns)
    .values({ orgId: a.orgId, name, providerCampaignId: providerId, status: 'active', statsLastSyncedAt: a.now, createdAt: a.now })
    .returning(columns);
  return { ...created, created: true };
}

async function byProviderId(tx: Db, orgId: string, providerId: string): Promise<Found | null> {
  const [found] = await tx
    .select(columns)
    .from(campaigns)
    .where(and(eq(campaigns.orgId, orgId), eq(campaigns.providerCampaignId, providerId)));
  return found ? { ...found, created: false } : null;
}
