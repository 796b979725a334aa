import { and, eq, sql, type SQL } from 'drizzle-orm';
import { apiKeys, campaigns, clients, organizations } from '../../schema';
import type { PortalPermissions } from '../../schema';
import { generateApiKey, hashApiKey, keysChanged, type KeyDirectory, type KeyPrefix } from '../auth/keys';
import { campaignView } from '../campaigns/list_campaigns';
import { isUniqueViolation, rows, type Db } from '../db/types';
import { stampLeadChange } from '../crm/change_clock';
import { recordDecision } from '../decisions/record';
import { ApiError, notFound } from '../errors';
import { changesBetween } from './changes';

// The organization owner's side (operator.md §3): orgs, clients, campaigns and keys. Called by the admin API.
// Organizations themselves live in ./orgs (re-exported here for the callers that set a whole tenant up).
export { createOrg, orgView, updateOrg, type CreateOrgInput, type OrgSettings, type UpdateOrgInput } from './orgs';
export { changesBetween } from './changes';

const DEFAULT_PORTAL: PortalPermissions = { show_hot: true, show_warm: true, show_cold: true, show_not_interested: false };

export const clientView = (c: typeof clients.$inferSelect) => ({ id: c.id, name: c.name, portal: c.portal });
export const keyView = (k: typeof apiKeys.$inferSelect) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  scopes: k.scopes,
  client_id: k.clientId,
  autonomy_level: k.autonomyLevel,
  rate_limit_per_minute: k.rateLimitPerMinute,
  daily_credit_limit: k.dailyCreditLimit,
  read_only: k.readOnly,
  kind: k.kind,
  revoked: k.revokedAt !== null,
  created_at: k.createdAt.toISOString(),
});

export async function requireOrg(db: Db, orgId: string) {
  const [org] = await db.select().from(organizations).where(eq(organizations.id, orgId));
  if (!org) throw notFound('organization');
  return org;
}

async function requireClientOf(db: Db, orgId: string, clientId: string) {
  const [client] = await db.select().from(clients).where(and(eq(clients.id, clientId), eq(clients.orgId, orgId)));
  if (!client) throw new ApiError('validation_error', 'client_id: no such client in this organization');
  return client;
}

export async function createClient(db: Db, orgId: string, input: { name: string; portal?: Partial<PortalPermissions> }) {
  await requireOrg(db, orgId);
  const [client] = await db.insert(clients).values({ orgId, name: input.name, portal: { ...DEFAULT_PORTAL, ...input.portal } }).returning();
  return clientView(client);
}

export async function updateClient(db: Db, clientId: string, input: { portal?: Partial<PortalPermissions>; name?: string }) {
  const updated = await db.transaction(async (tx) => {
    // Read under the row lock: merged from an unlocked read, concurrent PATCHes wrote each other's old fields back.
    const [client] = await tx.select().from(clients).where(eq(clients.id, clientId)).for('no key update');
    if (!client) throw notFound('client');
    const portal = { ...client.portal, ...input.portal };
    const visibilityChanged = JSON.stringify(portal) !== JSON.stringify(client.portal);
    const [row] = await tx.update(clients).set({ portal, name: input.name ?? client.name }).where(eq(clients.id, clientId)).returning();
    // Portal switches change which leads the CRM feed shows: stamp them so an incremental sync sees them appear.
    if (visibilityChanged) await stampLeadsWhere(tx, client.orgId, sql`campaign_id in (select id from campaigns where client_id = ${clientId})`);
    return row;
  });
  return clientView(updated);
}

export type CampaignInput = {
  name: string;
  client_id?: string | null;
  status?: 'active' | 'paused' | 'completed';
  sent?: number;
  opened?: number;
  /** The sending tool and its id of this campaign (inbound webhooks match on both); unique per organization. */
  provider?: CampaignProvider | null;
  provider_campaign_id?: string | null;
};
export type CampaignProvider = 'instantly' | 'smartlead' | 'emailbison' | 'generic';

/** A provider campaign id means nothing without its tool: two tools may both have a campaign 42. */
function requireProviderWithId(provider: CampaignProvider | null, providerCampaignId: string | null) {
  if (providerCampaignId !== null && provider === null) {
    throw new ApiError('validation_error', 'provider: required with provider_campaign_id (instantly, smartlead, emailbison or generic)');
  }
}

/** The admin view of a campaign: the core Campaign plus the sending tool's id of it. */
const adminCampaignView = (c: typeof campaigns.$inferSelect, client: { id: string; name: string } | null) => ({
  ...campaignView(c, client),
  provider: c.provider,
  provider_campaign_id: c.providerCampaignId,
});

const providerIdTaken = (id: string) =>
  new ApiError('conflict', `provider_campaign_id: another campaign of this organization already has the id ${JSON.stringify(id)} for this provider`);

/** A unique violation on the provider campaign id becomes a 409 naming it; anything else is rethrown. */
async function guardProviderId<T>(id: string | null | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (id && isUniqueViolation(err, 'campaigns_org_provider_campaign_uq')) throw providerIdTaken(id);
    throw err;
  }
}

export async function createCampaign(db: Db, orgId: string, input: CampaignInput, now: Date) {
  await requireOrg(db, orgId);
  const client = input.client_id ? await requireClientOf(db, orgId, input.client_id) : null;
  requireProviderWithId(input.provider ?? null, input.provider_campaign_id ?? null);
  const [c] = await guardProviderId(input.provider_campaign_id, () =>
    db
      .insert(campaigns)
      .values({
        orgId,
        clientId: client?.id ?? null,
        name: input.name,
        provider: input.provider ?? null,
        providerCampaignId: input.provider_campaign_id ?? null,
        status: input.status ?? 'active',
        sent: input.sent ?? 0,
        opened: input.opened ?? 0,
        statsLastSyncedAt: now,
      })
      .returning(),
  );
  return adminCampaignView(c, client);
}

/** Stats sync from the sending tool (and status/client changes); stamps `stats_last_synced_at`. */
export async function updateCampaign(db: Db, campaignId: string, input: Partial<CampaignInput>, now: Date) {
  const [c] = await guardProviderId(input.provider_campaign_id, () => db.transaction(async (tx) => {
    // Read under the row lock: merged from an unlocked read, a stats sync racing a client move undid the move.
    const [current] = await tx.select().from(campaigns).where(eq(campaigns.id, campaignId)).for('no key update');
    if (!current) throw notFound('campaign');
    const client = input.client_id ? await requireClientOf(tx, current.orgId, input.client_id) : null;
    const movesClient = input.client_id !== undefined && (client?.id ?? null) !== current.clientId;
    const provider = input.provider === undefined ? current.provider : input.provider;
    const providerCampaignId = input.provider_campaign_id === undefined ? current.providerCampaignId : input.provider_campaign_id;
    requireProviderWithId(provider, providerCampaignId);
    const updatedRows = await tx
      .update(campaigns)
      .set({
        name: input.name ?? current.name,
        status: input.status ?? current.status,
        sent: input.sent ?? current.sent,
        opened: input.opened ?? current.opened,
        clientId: input.client_id === undefined ? current.clientId : client?.id ?? null,
        provider,
        providerCampaignId,
        statsLastSyncedAt: input.sent !== undefined || input.opened !== undefined ? now : current.statsLastSyncedAt,
      })
      .where(eq(campaigns.id, campaignId))
      .returning();
    // Moving a campaign to another client moves its leads between client portals (and CRM feeds).
    if (movesClient) await stampLeadsWhere(tx, current.orgId, sql`campaign_id = ${campaignId}`);
    return updatedRows;
  }));
  const [cl] = c.clientId ? await db.select().from(clients).where(eq(clients.id, c.clientId)) : [];
  return adminCampaignView(c, cl ?? null);
}

export type KeyInput = {
  name: string;
  prefix?: KeyPrefix;
  scopes?: string[];
  client_id?: string | null;
  autonomy_level?: number;
  rate_limit_per_minute?: number;
  daily_credit_limit?: number;
  read_only?: boolean;
  /** `agency`: an agency tool server key (agency-operator.md §5). */
  kind?: 'api' | 'agency';
};

/** What an agency key may opt into besides agency.read and agency.write, which it always has. */
export const AGENCY_OPT_INS = ['replies.send', 'replies.approve', 'leads.read', 'reports.read', 'campaigns.read', 'agency.plans.approve'] as const;

/**
 * agency-operator.md §5: an agency key is organization-wide and holds agency.read + agency.write plus only the
 * allowed opt-ins (never `*`); agency scopes are for agency keys only. Returns the scopes to store.
 */
function scopesForKind(input: KeyInput): string[] {
  const scopes = input.scopes ?? (input.kind === 'agency' ? [] : ['*']);
  if (input.kind !== 'agency') {
    const agency = scopes.filter((s) => s.startsWith('agency.'));
    if (agency.length) throw new ApiError('validation_error', `scopes: ${agency.join(', ')} belong to agency keys (kind: "agency")`);
    return scopes;
  }
  if (input.client_id) throw new ApiError('validation_error', 'client_id: an agency key is organization-wide and cannot be locked to a client');
  const refused = scopes.filter((s) => s !== 'agency.read' && s !== 'agency.write' && !(AGENCY_OPT_INS as readonly string[]).includes(s));
  if (refused.length) {
    throw new ApiError('validation_error', `scopes: an agency key may add only ${AGENCY_OPT_INS.join(', ')} (not ${refused.join(', ')})`);
  }
  return ['agency.read', 'agency.write', ...AGENCY_OPT_INS.filter((s) => scopes.includes(s))];
}

/** core §4/§5: crm.read / crm.write serve client-locked keys only, so a grant to any other key is refused. */
function requireClientForCrmScopes(scopes: string[] | undefined, clientId: string | null | undefined) {
  if (scopes?.some((s) => s.startsWith('crm.')) && !clientId) throw new ApiError('validation_error', 'client_id: crm scopes need a client-locked key');
}

/** Creates a key; the secret is returned once and only its hash is stored. The trail records the key's grant. */
export async function createKey(db: Db, orgId: string, input: KeyInput, now = new Date()) {
  await requireOrg(db, orgId);
  // The kind's rules first: an agency key asking for crm.* hears the agency rule, not that it lacks a client.
  const scopes = scopesForKind(input);
  requireClientForCrmScopes(input.scopes, input.client_id);
  if (input.client_id) await requireClientOf(db, orgId, input.client_id);
  const prefix = input.prefix ?? 'live';
  const secret = generateApiKey(prefix);
  return db.transaction(async (tx) => {
    const created = await insertKey(tx, orgId, { ...input, scopes }, prefix, secret);
    const { created_at: _, ...grant } = created;
    await recordDecision(tx, { orgId, actor: 'admin', action: 'key.created', detail: { key: grant }, at: now });
    return { key: created, secret };
  });
}

async function insertKey(db: Db, orgId: string, input: KeyInput, prefix: KeyPrefix, secret: string) {
  const [key] = await db
    .insert(apiKeys)
    .values({
      orgId,
      clientId: input.client_id ?? null,
      name: input.name,
      prefix,
      keyHash: await hashApiKey(secret),
      keyHint: secret.slice(-4),
      scopes: input.scopes ?? ['*'],
      kind: input.kind ?? 'api',
      autonomyLevel: input.autonomy_level ?? 0,
      rateLimitPerMinute: input.rate_limit_per_minute ?? 100,
      dailyCreditLimit: input.daily_credit_limit ?? 100,
      readOnly: input.read_only ?? false,
    })
    .returning();
  return keyView(key);
}

/** Autonomy, scopes and revocation govern what a key may send: each change is a Decision Trail row. */
/** `keys`: after the commit, the key's next request anywhere sees the change (revocation included). */
export async function updateKey(db: Db, keyId: string, input: { autonomy_level?: number; scopes?: string[]; revoked?: boolean }, now: Date, keys?: KeyDirectory) {
  let orgId: string | undefined;
  const view = await db.transaction(async (tx) => {
    const [key] = await tx.select().from(apiKeys).where(eq(apiKeys.id, keyId)).for('no key update');
    if (!key) throw notFound('key');
    orgId = key.orgId;
    requireClientForCrmScopes(input.scopes, key.clientId);
    const scopes = input.scopes ? scopesForKind({ name: key.name, kind: key.kind, scopes: input.scopes, client_id: key.clientId }) : key.scopes;
    const revokedAt = input.revoked === undefined ? key.revokedAt : input.revoked ? key.revokedAt ?? now : null;
    const [updated] = await tx
      .update(apiKeys)
      .set({ autonomyLevel: input.autonomy_level ?? key.autonomyLevel, scopes, revokedAt })
      .where(eq(apiKeys.id, keyId))
      .returning();
    const changes = changesBetween(keyView(key), keyView(updated));
    if (Object.keys(changes).length > 0) {
      const action = changes.revoked ? (updated.revokedAt ? 'key.revoked' : 'key.restored') : 'key.updated';
      await recordDecision(tx, { orgId: key.orgId, actor: 'admin', action, detail: { key_id: key.id, key_name: key.name, changes }, at: now });
    }
    return keyView(updated);
  });
  if (orgId) await keysChanged(keys, orgId);
  return view;
}

/** Locks the matching leads (so stamping cannot deadlock with a writer) and stamps them as changed. */
async function stampLeadsWhere(tx: Db, orgId: string, where: SQL) {
  const locked = await rows<{ id: string }>(tx, sql`select id from leads where org_id = ${orgId} and ${where} order by id for update`);
  if (locked.length) await stampLeadChange(tx, orgId, locked.map((l) => l.id));
}
