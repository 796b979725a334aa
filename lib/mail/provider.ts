import { eq } from 'drizzle-orm';
import { sendingProviders } from '../../schema';
import type { Db } from '../db/types';
import { recordDecision } from '../decisions/record';
import { ApiError } from '../errors';
import { checkOutboundUrl } from '../net/ssrf';
import type { Services } from '../services';
import { isValidWebhookSecret } from '../webhooks/signing';
import { createHttpProvider, PROVIDER_TIMEOUT_MS } from './http';
import { createInstantlyProvider } from './instantly';
import { outboxProvider } from './outbox';
import type { MailProvider, ProviderKind } from './port';
import { createSmartleadProvider } from './smartlead';

export type ProviderDeps = Pick<Services, 'config' | 'secrets' | 'resolveHost'>;

export type ProviderInput =
  | { kind: 'outbox' }
  | { kind: 'http'; url: string; secret?: string | null }
  | { kind: 'instantly'; api_key: string }
  | { kind: 'smartlead'; api_key: string };

type ProviderRow = { kind: ProviderKind; url: string | null; secretEnc: string | null };
type SendingTool = 'instantly' | 'smartlead';
const isSendingTool = (kind: ProviderKind): kind is SendingTool => kind === 'instantly' || kind === 'smartlead';

/** "…" and the key's last four characters: enough to tell which key is set, never enough to use it. */
export const apiKeyHint = (key: string) => `…${key.slice(-4)}`;

/**
 * What the admin API and the Decision Trail show of a provider: the http URL and whether it signs; for a sending
 * tool only a hint of its API key (null when the stored key cannot be read, e.g. under a key being rotated out).
 */
export async function providerView(row: ProviderRow, deps: Pick<ProviderDeps, 'secrets'>, plainKey?: string) {
  if (row.kind === 'http') return { kind: row.kind, url: row.url, signed: row.secretEnc !== null };
  if (!isSendingTool(row.kind)) return { kind: row.kind };
  let key = plainKey ?? null;
  if (key === null && row.secretEnc) key = await deps.secrets.decrypt(row.secretEnc).catch(() => null);
  return { kind: row.kind, api_key_hint: key ? apiKeyHint(key) : null };
}

/** The organization's provider; no configuration means the outbox. Read with the send's transaction. */
export async function providerFor(tx: Db, deps: ProviderDeps, orgId: string): Promise<MailProvider> {
  const [row] = await tx.select().from(sendingProviders).where(eq(sendingProviders.orgId, orgId));
  if (!row || row.kind === 'outbox') return outboxProvider;
  if (isSendingTool(row.kind)) {
    // configureProvider never stores a sending tool without its key; a row written by hand without one fails the send.
    if (!row.secretEnc) return unconfigured(row.kind);
    const apiKey = await deps.secrets.decrypt(row.secretEnc);
    // The hosts come from configuration (the real APIs unless an operator points them elsewhere), never from the row.
    return row.kind === 'instantly'
      ? createInstantlyProvider({ apiKey, baseUrl: deps.config.INSTANTLY_API_URL, timeoutMs: PROVIDER_TIMEOUT_MS })
      : createSmartleadProvider({ apiKey, baseUrl: deps.config.SMARTLEAD_API_URL, timeoutMs: PROVIDER_TIMEOUT_MS });
  }
  if (!row.url) return outboxProvider;
  return createHttpProvider({
    url: row.url,
    secret: row.secretEnc ? await deps.secrets.decrypt(row.secretEnc) : null,
    allowPrivate: deps.config.ALLOW_PRIVATE_WEBHOOK_URLS,
    resolveHost: deps.resolveHost,
  });
}

const unconfigured = (kind: SendingTool): MailProvider => ({
  kind,
  transactional: false,
  send: async () => ({ ok: false, error: `the ${kind} provider has no API key configured`, outcome: 'not_sent' }),
});

// Printable ASCII without spaces: what both tools issue. Anything else is a paste error worth refusing early.
const API_KEY_SHAPE = /^[\x21-\x7e]{8,512}$/;

/**
 * Sets an organization's provider (admin API). An http URL must pass the same outbound policy as webhooks
 * (public https unless ALLOW_PRIVATE_WEBHOOK_URLS); its secret must be a `whsec_` secret. A sending tool's API key
 * is stored encrypted, like the secret, and never shown again (the answer carries a hint of it).
 */
export async function configureProvider({ db, deps, orgId, input, now }: { db: Db; deps: ProviderDeps; orgId: string; input: ProviderInput; now: Date }) {
  let values: ProviderRow;
  let plainKey: string | undefined;
  if (input.kind === 'outbox') {
    values = { kind: 'outbox', url: null, secretEnc: null };
  } else if (input.kind === 'http') {
    const checked = await checkOutboundUrl(input.url, { allowPrivate: deps.config.ALLOW_PRIVATE_WEBHOOK_URLS, resolve: deps.resolveHost });
    if (!checked.ok) throw new ApiError('validation_error', `url: ${checked.reason}`);
    if (input.secret && !isValidWebhookSecret(input.secret)) {
      throw new ApiError('validation_error', 'secret: must be a whsec_ secret (whsec_ followed by 24 to 64 bytes in canonical base64)');
    }
    values = { kind: 'http', url: checked.url.href, secretEnc: input.secret ? await deps.secrets.encrypt(input.secret) : null };
  } else {
    if (!API_KEY_SHAPE.test(input.api_key)) {
      throw new ApiError('validation_error', `api_key: must be the ${input.kind} API key as issued (8 to 512 printable characters, no spaces)`);
    }
    plainKey = input.api_key;
    values = { kind: input.kind, url: null, secretEnc: await deps.secrets.encrypt(input.api_key) };
  }
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(sendingProviders).where(eq(sendingProviders.orgId, orgId)).for('no key update');
    const [row] = await tx
      .insert(sendingProviders)
      .values({ orgId, ...values, updatedAt: now })
      .onConflictDoUpdate({ target: sendingProviders.orgId, set: { ...values, updatedAt: now } })
      .returning();
    // Where replies are sent is a governance decision; the trail keeps the URL and whether it signs, or a sending
    // tool's key hint, never a secret or key.
    const from = before ? await providerView(before, deps) : { kind: 'outbox' };
    const to = await providerView(row, deps, plainKey);
    await recordDecision(tx, { orgId, actor: 'admin', action: 'sending_provider.configured', detail: { from, to }, at: now });
    return to;
  });
}
