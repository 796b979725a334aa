// Rolling an endpoint's secret (Stripe's "roll secret"): a new whsec_ secret is shown once and signs every delivery
// from now on; the replaced one keeps signing beside it until it expires (default 24 h, 0 = at once), so the
// receiver can switch to the new secret without a window in which it rejects our deliveries. Every scheme that
// carries several signatures gets one per secret (lib/webhooks/signing.ts); the legacy header carries the new one.
import { and, eq } from 'drizzle-orm';
import { webhooks } from '../../schema';
import type { AuthContext } from '../auth/keys';
import { recordDecision } from '../decisions/record';
import { notFound } from '../errors';
import type { Services } from '../services';
import { tenantFilter, tenantOf } from '../tenancy';
import { generateWebhookSecret } from './signing';
import { webhookView } from './views';

export const DEFAULT_OVERLAP_HOURS = 24;
export const MAX_OVERLAP_HOURS = 168;

type SecretColumns = { secretEnc: string; previousSecretEnc: string | null; previousSecretExpiresAt: Date | null };

/** The secrets a delivery made now is signed with: the current one first, then the previous one while it lasts. */
export async function signingSecrets(secrets: Services['secrets'], hook: SecretColumns, now: Date): Promise<string[]> {
  const current = await secrets.decrypt(hook.secretEnc);
  const previousValid = hook.previousSecretEnc && hook.previousSecretExpiresAt && hook.previousSecretExpiresAt > now;
  return previousValid ? [current, await secrets.decrypt(hook.previousSecretEnc!)] : [current];
}

export async function rotateWebhookSecret({ services, auth, id, overlapHours, now }: { services: Pick<Services, 'db' | 'secrets'>; auth: AuthContext; id: string; overlapHours: number; now: Date }) {
  const secret = generateWebhookSecret();
  const secretEnc = await services.secrets.encrypt(secret);
  const expiresAt = new Date(now.getTime() + overlapHours * 3_600_000);
  return services.db.transaction(async (tx) => {
    const [hook] = await tx
      .select()
      .from(webhooks)
      .where(and(eq(webhooks.id, id), tenantFilter(tenantOf(auth), webhooks.orgId, webhooks.clientId)))
      .for('no key update');
    if (!hook) throw notFound('webhook');
    const [updated] = await tx
      .update(webhooks)
      .set(overlapHours > 0 ? { secretEnc, previousSecretEnc: hook.secretEnc, previousSecretExpiresAt: expiresAt } : { secretEnc, previousSecretEnc: null, previousSecretExpiresAt: null })
      .where(eq(webhooks.id, hook.id))
      .returning();
    const previousUntil = overlapHours > 0 ? expiresAt.toISOString() : null;
    await recordDecision(tx, { orgId: hook.orgId, actor: auth.keyName, action: 'webhook.secret_rotated', detail: { webhook_id: hook.id, previous_secret_expires_at: previousUntil }, at: now });
    return { webhook: webhookView(updated), secret, previous_secret_expires_at: previousUntil };
  });
}
