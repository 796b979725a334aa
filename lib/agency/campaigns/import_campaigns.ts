import { and, asc, count, eq, inArray, isNull } from 'drizzle-orm';
import { campaigns, providerCampaigns } from '../../../schema';
import { isUniqueViolation, type Db } from '../../db/types';
import { ApiError } from '../../errors';
import { findClient } from '../clients/view';
import type { Applied, Preview, TwoStepDef } from '../confirm';
import type { AgencyCall } from '../operation';
import { moveCampaigns, type CampaignMove } from './move';
import { agencyCampaignView, clientRef, findCampaign, importProviderOf, type AgencyCampaign, type CampaignRow } from './view';

/** One import is one transaction: a larger backlog is imported in rounds (the preview says how many remain). */
export const MAX_IMPORT = 200;

export type ImportInput = { provider_campaign_ids?: string[]; client_id?: string; confirm_token?: string };

type ProviderCampaign = typeof providerCampaigns.$inferSelect;

export type ImportItem = {
  provider_campaign_id: string;
  name: string;
  status: 'active' | 'paused' | 'completed';
  /** A campaign of this organization that already has this provider id (created by an inbound webhook or the admin): it is adopted, not duplicated. */
  existing_campaign_id: string | null;
};

export type ImportPreview = {
  client: { id: string; name: string } | null;
  provider: string;
  count: number;
  campaigns: ImportItem[];
  already_imported: { provider_campaign_id: string; campaign_id: string | null }[];
  more_not_imported: number;
};

export type ImportResult = { imported: AgencyCampaign[]; count: number };

/** The provider campaigns the call asks for: the named ones (unknown → not_found naming them) or the oldest not imported. */
async function requested(call: AgencyCall, input: ImportInput, db: Db, lock: boolean) {
  const { orgId } = call.auth;
  if (input.provider_campaign_ids) {
    const ids = [...new Set(input.provider_campaign_ids)];
    const q = db.select().from(providerCampaigns).where(and(eq(providerCampaigns.orgId, orgId), inArray(providerCampaigns.providerCampaignId, ids)));
    const found = lock ? await q.for('update') : await q;
    const known = new Set(found.map((p) => p.providerCampaignId));
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length) {
      throw new ApiError('not_found', `provider_campaign_ids: no provider campaign ${unknown.map((id) => JSON.stringify(id)).join(', ')} in this organization (list_campaigns shows them under not_imported)`, {
        body: { unknown_provider_campaign_ids: unknown },
      });
    }
    return { pending: found.filter((p) => p.importedCampaignId === null), imported: found.filter((p) => p.importedCampaignId !== null), more: 0 };
  }
  const open = and(eq(providerCampaigns.orgId, orgId), isNull(providerCampaigns.importedCampaignId));
  const q = db.select().from(providerCampaigns).where(open).orderBy(asc(providerCampaigns.createdAt), asc(providerCampaigns.providerCampaignId)).limit(MAX_IMPORT);
  // Locked so a concurrent import of the same rows waits, then sees them imported: its state differs, stale.
  // Sequential: inside the confirm's transaction both run on one connection.
  const pending = lock ? await q.for('update') : await q;
  const [{ n }] = await db.select({ n: count() }).from(providerCampaigns).where(open);
  return { pending, imported: [] as ProviderCampaign[], more: Number(n) - pending.length };
}

/** Campaigns that already carry a pending provider id under the provider the import would use. */
async function existingByProviderId(db: Db, orgId: string, provider: string, ids: string[], lock: boolean) {
  if (ids.length === 0) return new Map<string, CampaignRow>();
  const q = db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.orgId, orgId), eq(campaigns.provider, provider as 'generic'), inArray(campaigns.providerCampaignId, ids)))
    .orderBy(asc(campaigns.id));
  const found = lock ? await q.for('no key update') : await q;
  return new Map(found.map((c) => [c.providerCampaignId!, c]));
}

async function preview(call: AgencyCall, input: ImportInput, db: Db): Promise<Preview<ImportPreview>> {
  const { orgId } = call.auth;
  const lock = db !== call.services.db;
  const client = input.client_id ? await findClient(db, orgId, input.client_id) : null;
  const provider = await importProviderOf(db, orgId);
  const { pending, imported, more } = await requested(call, input, db, lock);
  pending.sort((a, b) => (a.providerCampaignId < b.providerCampaignId ? -1 : 1));
  const ids = pending.map((p) => p.providerCampaignId);
  const existing = await existingByProviderId(db, orgId, provider, ids, lock);
  const items = pending.map((p) => ({ provider_campaign_id: p.providerCampaignId, name: p.name, status: p.status, existing_campaign_id: existing.get(p.providerCampaignId)?.id ?? null }));
  const answer: ImportPreview = {
    client: client ? { id: client.id, name: client.name } : null,
    provider,
    count: items.length,
    campaigns: items,
    already_imported: imported
      .map((p) => ({ provider_campaign_id: p.providerCampaignId, campaign_id: p.importedCampaignId }))
      .sort((a, b) => (a.provider_campaign_id < b.provider_campaign_id ? -1 : 1)),
    more_not_imported: more,
  };
  return {
    preview: answer,
    // What the confirm would do depends on exactly these: an import (or a campaign created) in between makes it stale.
    state: { provider, client_id: client?.id ?? null, pending: ids, existing: items.map((i) => i.existing_campaign_id) },
    credits: 0,
    ...(items.length === 0
      ? { blockedBy: 'nothing_to_import' as const, blockedMessage: 'nothing to import: every provider campaign asked for is already imported' }
      : {}),
  };
}

async function apply(call: AgencyCall, input: ImportInput, tx: Db, p: Preview<ImportPreview>): Promise<Applied<ImportResult>> {
  const { orgId } = call.auth;
  const target = p.preview.client?.id ?? null;
  const moves: CampaignMove[] = [];
  for (const item of p.preview.campaigns) {
    let campaign: CampaignRow;
    if (item.existing_campaign_id) {
      campaign = await findCampaign(tx, orgId, item.existing_campaign_id, true);
    } else {
      campaign = await createImported(tx, orgId, p.preview.provider, item, target, call.now);
    }
    await tx
      .update(providerCampaigns)
      .set({ importedCampaignId: campaign.id })
      .where(and(eq(providerCampaigns.orgId, orgId), eq(providerCampaigns.providerCampaignId, item.provider_campaign_id)));
    // An adopted campaign goes into the client named; without one it stays where it is.
    moves.push({ current: campaign, clientId: target ?? campaign.clientId });
  }
  const rows = await moveCampaigns(tx, orgId, moves);
  const refs = new Map<string, { id: string; name: string } | null>();
  for (const r of rows) if (r.clientId && !refs.has(r.clientId)) refs.set(r.clientId, await clientRef(tx, r.clientId));
  const imported = rows.map((r) => agencyCampaignView(r, r.clientId ? refs.get(r.clientId) ?? null : null));
  return {
    result: { imported, count: imported.length },
    audit: {
      action: 'campaigns.imported',
      target: target ? `client:${target}` : null,
      detail: {
        provider: p.preview.provider,
        provider_campaign_ids: p.preview.campaigns.map((i) => i.provider_campaign_id),
        campaign_ids: imported.map((c) => c.id),
        adopted: p.preview.campaigns.filter((i) => i.existing_campaign_id).map((i) => i.existing_campaign_id),
      },
    },
  };
}

async function createImported(tx: Db, orgId: string, provider: string, item: ImportItem, clientId: string | null, now: Date): Promise<CampaignRow> {
  try {
    const [row] = await tx
      .insert(campaigns)
      .values({ orgId, clientId, name: item.name, provider: provider as 'generic', providerCampaignId: item.provider_campaign_id, status: item.status, statsLastSyncedAt: now, createdAt: now })
      .returning();
    return row;
  } catch (err) {
    // A campaign with this id was created after the preview locked what it read (an inbound webhook): ask again.
    if (isUniqueViolation(err, 'campaigns_org_provider_campaign_uq')) {
      throw new ApiError('conflict', `provider_campaign_id ${JSON.stringify(item.provider_campaign_id)}: a campaign with this id appeared since the preview; ask for a new preview`);
    }
    throw err;
  }
}

/** import_campaigns: the sending tool's campaigns become campaigns of the organization (optionally of one client), in two steps. */
export const importCampaigns: TwoStepDef<ImportInput, ImportPreview, ImportResult> = { tool: 'import_campaigns', preview, apply };
