import { eq } from 'drizzle-orm';
import { sendingProviders } from '../../schema';
import type { Db } from '../db/types';
import { recordDecision } from '../decisions/record';
import { ApiError } from '../errors';
import { checkOutboundUrl } from '../net/ssrf';
import type { Services } from '../services';
import { isValidWebhookSecret } from '../webhooks/signing';
import { createHttpProvider } from './http';
import { outboxProvider } from './outbox';
import type { MailProvider } from './port';

export type ProviderDeps = Pick<Services, 'config' | 'secrets' | 'resolveHost'>;

export type ProviderInput = { kind: 'outbox' } | { kind: 'http'; url: string; secret?: string | null };

export const providerView = (row: { kind: 'outbox' | 'http'; url: string | null; secretEnc: string | null }) =>
  row.kind === 'http' ? { kind: row.kind, url: row.url, signed: row.secretEnc !== null } : { kind: row.kind };

/** The organization's provider; no configuration means the outbox. Read with the send's transaction. */
export async function providerFor(tx: Db, deps: ProviderDeps, orgId: string): Promise<MailProvider> {
  const [row] = await tx.select().from(sendingProviders).where(eq(sendingProviders.orgId, orgId));
  if (!row || row.kind === 'outbox' || !row.url) return outboxProvider;
  return createHttpProvider({
    url: row.url,
    secret: row.secretEnc ? await deps.secrets.decrypt(row.secretEnc) : null,
    allowPrivate: deps.config.ALLOW_PRIVATE_WEBHOOK_URLS,
    resolveHost: deps.resolveHost,
  });
}

/**
 * Sets an organization's provider (admin API). An http URL must pass the same outbound policy as webhooks
 * (public https unless ALLOW_PRIVATE_WEBHOOK_URLS); its secret must be a `whsec_` secret, kept encrypted.
 */
export async function configureProvider({ db, deps, orgId, input, now }: { db: Db; deps: ProviderDeps; orgId: string; input: ProviderInput; now: Date }) {
  let values: { kind: 'outbox' | 'http'; url: string | null; secretEnc: string | null };
  if (input.kind === 'outbox') {
    values = { kind: 'outbox', url: null, secretEnc: null };
  } else {
    const checked = await checkOutboundUrl(input.url, { allowPrivate: deps.config.ALLOW_PRIVATE_WEBHOOK_URLS, resolve: deps.resolveHost });
    if (!checked.ok) throw new ApiError('validation_error', `url: ${checked.reason}`);
    if (input.secret && !isValidWebhookSecret(input.secret)) {
      throw new ApiError('validation_error', 'secret: must be a whsec_ secret (whsec_ followed by 24 to 64 bytes in canonical base64)');
    }
    values = { kind: 'http', url: checked.url.href, secretEnc: input.secret ? await deps.secrets.encrypt(input.secret) : null };
  }
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(sendingProviders).where(eq(sendingProviders.orgId, orgId)).for('no key update');
    const [row] = await tx
      .insert(sendingProviders)
      .values({ orgId, ...values, updatedAt: now })
      .onConflictDoUpdate({ target: sendingProviders.orgId, set: { ...values, updatedAt: now } })
      .returning();
    // Where replies are sent is a governance decision; the trail keeps the URL and whether it signs, never the secret.
    const from = before ? providerView(before) : { kind: 'outbox' };
    await recordDecision(tx, { orgId, actor: 'admin', action: 'sending_provider.configured', detail: { from, to: providerView(row) }, at: now });
    return providerView(row);
  });
}
