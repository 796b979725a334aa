// Webhook endpoints: create (SSRF check, 10 per organization, one-time secret), list, get, update (name, url,
// events, enable/disable), delete.
// Tenant rule: an organization's keys see its webhooks; a client-locked key sees (and creates) only webhooks of
// its client, which receive only that client's events. Anything else is a 404.
import { and, asc, count, eq } from 'drizzle-orm';
import { organizations, webhooks } from '../../schema';
import type { AuthContext } from '../auth/keys';
import { randomToken } from '../crypto/secrets';
import type { Db } from '../db/types';
import { recordDecision } from '../decisions/record';
import { ApiError, notFound } from '../errors';
import { checkOutboundUrl } from '../net/ssrf';
import type { Services } from '../services';
import { tenantFilter, tenantOf } from '../tenancy';
import { generateWebhookSecret } from './signing';
import { webhookView } from './views';

export const MAX_WEBHOOKS_PER_ORG = 10;

export type CreateWebhookInput = { name: string; url: string; events: string[] };
type Deps = Pick<Services, 'db' | 'config' | 'secrets' | 'resolveHost'>;

/** The outbound URL policy (lib/net/ssrf.ts) with this deployment's settings; used at creation and at delivery. */
export function checkWebhookUrl(services: Pick<Services, 'config' | 'resolveHost'>, url: string) {
  return checkOutboundUrl(url, { allowPrivate: services.config.ALLOW_PRIVATE_WEBHOOK_URLS, resolve: services.resolveHost });
}

export async function createWebhook({ services, auth, input, now }: { services: Deps; auth: AuthContext; input: CreateWebhookInput; now: Date }) {
  const checked = await checkWebhookUrl(services, input.url);
  if (!checked.ok) throw new ApiError('validation_error', `url: ${checked.reason}`);
  const secret = generateWebhookSecret();
  const secretEnc = await services.secrets.encrypt(secret);
  const id = `wh-${randomToken(16, 'base62')}`;

  const row = await services.db.transaction(async (tx) => {
    // The organization row is the lock that keeps two concurrent creates from both being the 10th. NO KEY UPDATE:
    // FOR UPDATE would also wait for every open write of the organization (their inserts KEY SHARE-lock this row).
    await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, auth.orgId)).for('no key update');
    const [{ n }] = await tx.select({ n: count() }).from(webhooks).where(eq(webhooks.orgId, auth.orgId));
    if (n >= MAX_WEBHOOKS_PER_ORG) {
      throw new ApiError('webhook_limit_reached', `this organization already has ${MAX_WEBHOOKS_PER_ORG} webhooks; delete one first`);
    }
    const [created] = await tx
      .insert(webhooks)
      .values({ id, orgId: auth.orgId, clientId: auth.clientId, name: input.name, url: input.url, events: [...new Set(input.events)], secretEnc, createdAt: now })
      .returning();
    await recordDecision(tx, { orgId: auth.orgId, actor: auth.keyName, action: 'webhook.created', detail: { webhook_id: id, url: input.url, events: created.events }, at: now });
    return created;
  });
  return { webhook: webhookView(row), secret };
}

export async function listWebhooks({ db, auth }: { db: Db; auth: AuthContext }) {
  const list = await db.select().from(webhooks).where(tenantFilter(tenantOf(auth), webhooks.orgId, webhooks.clientId)).orderBy(asc(webhooks.createdAt), asc(webhooks.id));
  return list.map(webhookView);
}

/** The caller's webhook or a 404 (also for another tenant's). */
export async function findWebhook(db: Db, auth: AuthContext, id: string) {
  const [row] = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, id), tenantFilter(tenantOf(auth), webhooks.orgId, webhooks.clientId)));
  if (!row) throw notFound('webhook');
  return row;
}

export type UpdateWebhookInput = { name?: string; url?: string; events?: string[]; is_active?: boolean };

const sameKinds = (a: readonly string[], b: readonly string[]) => JSON.stringify([...new Set(a)].sort()) === JSON.stringify([...new Set(b)].sort());

/**
 * PATCH: rename, move (the new URL passes the same SSRF check as at creation), change the subscribed events, and
 * enable/disable. `is_active: true` re-enables: the failure count goes back to 0 and the reason is cleared; the
 * secret always stays. A new URL does not re-enable a disabled endpoint by itself. Deliveries already dispatched
 * (and their retries) go to the URL the endpoint has when they are attempted.
 */
export async function updateWebhook({ services, auth, id, input, now }: { services: Deps; auth: AuthContext; id: string; input: UpdateWebhookInput; now: Date }) {
  await findWebhook(services.db, auth, id); // another tenant's id is a 404 before anything is checked or resolved
  if (input.url !== undefined) {
    const checked = await checkWebhookUrl(services, input.url);
    if (!checked.ok) throw new ApiError('validation_error', `url: ${checked.reason}`);
  }
  return services.db.transaction(async (tx) => {
    const where = and(eq(webhooks.id, id), tenantFilter(tenantOf(auth), webhooks.orgId, webhooks.clientId));
    const [current] = await tx.select().from(webhooks).where(where).for('no key update');
    if (!current) throw notFound('webhook');
    const set: Partial<typeof webhooks.$inferInsert> = {};
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    if (input.name !== undefined && input.name !== current.name) changes.name = { from: current.name, to: (set.name = input.name) };
    if (input.url !== undefined && input.url !== current.url) changes.url = { from: current.url, to: (set.url = input.url) };
    if (input.events !== undefined && !sameKinds(input.events, current.events)) changes.events = { from: current.events, to: (set.events = [...new Set(input.events)]) };
    if (input.is_active === true) Object.assign(set, { isActive: true, failureCount: 0, disabledReason: null });
    if (input.is_active === false) set.isActive = false;
    const [row] = Object.keys(set).length > 0 ? await tx.update(webhooks).set(set).where(eq(webhooks.id, id)).returning() : [current];
    if (Object.keys(changes).length > 0) {
      await recordDecision(tx, { orgId: auth.orgId, actor: auth.keyName, action: 'webhook.updated', detail: { webhook_id: id, changes }, at: now });
    }
    if (input.is_active !== undefined) {
      await recordDecision(tx, { orgId: auth.orgId, actor: auth.keyName, action: input.is_active ? 'webhook.enabled' : 'webhook.disabled', detail: { webhook_id: id }, at: now });
    }
    return webhookView(row);
  });
}

/** Permanent: the endpoint, its pending deliveries and its attempt log go. */
export async function deleteWebhook({ db, auth, id, now }: { db: Db; auth: AuthContext; id: string; now: Date }) {
  return db.transaction(async (tx) => {
    const where = and(eq(webhooks.id, id), tenantFilter(tenantOf(auth), webhooks.orgId, webhooks.clientId));
    const [row] = await tx.delete(webhooks).where(where).returning({ id: webhooks.id, url: webhooks.url });
    if (!row) throw notFound('webhook');
    await recordDecision(tx, { orgId: auth.orgId, actor: auth.keyName, action: 'webhook.deleted', detail: { webhook_id: id, url: row.url }, at: now });
    return { deleted: true };
  });
}
