import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { campaigns, clients, providerCampaigns, sendingProviders } from '../../../schema';
import { campaignView } from '../../campaigns/list_campaigns';
import type { Db } from '../../db/types';
import { notFound } from '../../errors';

export const CAMPAIGN_STATUSES = ['active', 'paused', 'completed'] as const;

/** The core Campaign (GET /v1/campaigns) plus the sending tool's id of it, which imports and webhooks match on. */
export const AgencyCampaignSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  sent: z.number().int(),
  replied: z.number().int(),
  reply_rate: z.number().describe('replied / sent as a fraction (0.125 = 12.5 %)'),
  open_rate: z.number().describe('opened / sent as a fraction'),
  client: z.object({ id: z.string(), name: z.string() }).nullable(),
  stats_last_synced_at: z.string(),
  provider: z.string().nullable(),
  provider_campaign_id: z.string().nullable(),
});
export type AgencyCampaign = z.infer<typeof AgencyCampaignSchema>;

export type CampaignRow = typeof campaigns.$inferSelect;

export const agencyCampaignView = (c: CampaignRow, client: { id: string; name: string } | null): AgencyCampaign => ({
  ...campaignView(c, client),
  provider: c.provider,
  provider_campaign_id: c.providerCampaignId,
});

/** A campaign that exists at the sending tool and is not imported yet. */
export const NotImportedSchema = z.object({ id: z.string(), provider_campaign_id: z.string(), name: z.string(), status: z.enum(CAMPAIGN_STATUSES) });

export const notImportedView = (p: typeof providerCampaigns.$inferSelect) => ({ id: p.id, provider_campaign_id: p.providerCampaignId, name: p.name, status: p.status });

/** The organization's campaign, or not_found; `lock` for a change that merges with what it read. */
export async function findCampaign(db: Db, orgId: string, campaignId: string, lock = false): Promise<CampaignRow> {
  const q = db.select().from(campaigns).where(and(eq(campaigns.id, campaignId), eq(campaigns.orgId, orgId)));
  const [row] = lock ? await q.for('no key update') : await q;
  if (!row) throw notFound('campaign');
  return row;
}

export async function clientRef(db: Db, clientId: string | null) {
  if (!clientId) return null;
  const [c] = await db.select({ id: clients.id, name: clients.name }).from(clients).where(eq(clients.id, clientId));
  return c ?? null;
}

/**
 * The `provider` an imported campaign gets: the organization's sending tool when it is one whose webhooks name
 * their campaigns (Instantly, Smartlead), else `generic` (the outbox or the organization's own HTTP service).
 */
export async function importProviderOf(db: Db, orgId: string): Promise<'instantly' | 'smartlead' | 'generic'> {
  const [p] = await db.select({ kind: sendingProviders.kind }).from(sendingProviders).where(eq(sendingProviders.orgId, orgId));
  return p?.kind === 'instantly' || p?.kind === 'smartlead' ? p.kind : 'generic';
}
