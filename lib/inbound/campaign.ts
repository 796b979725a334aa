import { and, eq, isNull, sql } from 'drizzle-orm';
import { campaigns, type InboundSourceProvider } from '../../schema';
import type { Db } from '../db/types';
import { ApiError } from '../errors';

type Found = { id: string; name: string; created: boolean };
const columns = { id: campaigns.id, name: campaigns.name };

/**
 * The campaign a sending tool's reply belongs to, inside the ingestion transaction:
 * 1. ours with this tool and the tool's campaign id (provider, provider_campaign_id);
 * 2. else ours of the same name (case-insensitive) without a provider id yet (made by hand): it learns the id;
 * 3. else a new campaign under the tool's name (and id).
 * Replies of one new campaign arrive together, so steps 2-3 run under a transaction-scoped advisory lock on the
 * organization and the tool's campaign id (or name): one campaign is created, never two. The common case (step 1
 * finds it) takes no lock. Writes that could still meet a concurrent admin change of the same id never fail the
 * delivery: a conflicting insert or adoption falls back to reading the winner.
 */
export async function resolveCampaign(
  tx: Db,
  a: { orgId: string; provider: InboundSourceProvider; campaign: { id?: string | null; name?: string | null }; now: Date },
): Promise<Found> {
  const providerId = a.campaign.id?.trim() || null;
  const name = a.campaign.name?.trim().slice(0, 200) || null;
  if (!providerId && !name) throw new ApiError('unknown_campaign', 'campaign: the delivery names neither a campaign id nor a campaign name');
  const byProviderId = async () => {
    if (!providerId) return null;
    const [found] = await tx
      .select(columns)
      .from(campaigns)
      .where(and(eq(campaigns.orgId, a.orgId), eq(campaigns.provider, a.provider), eq(campaigns.providerCampaignId, providerId)));
    return found ? { ...found, created: false } : null;
  };

  const known = await byProviderId();
  if (known) return known;
  if (!name) {
    throw new ApiError(
      'unknown_campaign',
      `campaign: no ${a.provider} campaign of this organization has the id ${JSON.stringify(providerId)}, and the delivery gives no campaign name to create it under (set provider and provider_campaign_id on the campaign through the admin API, or send campaign.name)`,
    );
  }
  // Keyed by the provider id when there is one (its unique index must never be raced into a 500), else by name.
  const lockKey = providerId ? `campaign:${a.orgId}:${a.provider}:${providerId}` : `campaign:${a.orgId}:name:${name.toLowerCase()}`;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${lockKey}, 0))`);
  const createdMeanwhile = await byProviderId();
  if (createdMeanwhile) return createdMeanwhile;

  const [byName] = await tx
    .select(columns)
    .from(campaigns)
    .where(and(eq(campaigns.orgId, a.orgId), sql`lower(${campaigns.name}) = lower(${name})`, providerId ? isNull(campaigns.providerCampaignId) : undefined))
    .orderBy(campaigns.createdAt, campaigns.id)
    .limit(1);
  if (byName && !providerId) return { ...byName, created: false };
  if (byName && providerId) {
    // Only if it still has no id: a delivery of another campaign of the same name may have taught it one.
    const adopted = await tx
      .update(campaigns)
      .set({ provider: a.provider, providerCampaignId: providerId })
      .where(and(eq(campaigns.id, byName.id), isNull(campaigns.providerCampaignId)))
      .returning(columns);
    if (adopted.length) return { ...adopted[0], created: false };
  }
  const created = await tx
    .insert(campaigns)
    .values({ orgId: a.orgId, name, provider: providerId ? a.provider : null, providerCampaignId: providerId, status: 'active', statsLastSyncedAt: a.now, createdAt: a.now })
    .onConflictDoNothing()
    .returning(columns);
  if (created.length) return { ...created[0], created: true };
  // The admin API gave another campaign this id a moment ago: the reply belongs there.
  const winner = await byProviderId();
  if (!winner) throw new Error('campaign insert conflicted but no campaign has the provider id');
  return winner;
}
