// The delivery step: claim due deliveries (a lease in `next_attempt_at`, so a QStash message, a retry job and the
// sweep can race for one delivery and only one sends), check the URL again (a name can change what it resolves
// to), sign, POST once, and record the outcome (lib/webhooks/record.ts).
import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import { webhookDeliveries, webhooks } from '../../schema';
import { errorText } from '../log';
import { forEachLimit } from '../queue/run';
import type { Services } from '../services';
import { deliverOnce, type DeliveryResult } from './deliver';
import { checkWebhookUrl } from './manage';
import { recordAutomaticAttempts, type AttemptOutcome } from './record';
import { signingSecrets } from './rotate_secret';
import { signDelivery } from './signing';

/** A claimed delivery is ours this long: longer than one attempt (10 s timeout) plus recording it. */
export const DELIVERY_LEASE_MS = 60_000;
const ATTEMPT_CONCURRENCY = 25;
export const USER_AGENT = 'ReplyIntelligence-Webhooks/1.0';

export type ClaimedDelivery = typeof webhookDeliveries.$inferSelect;
export type Endpoint = { id: string; orgId: string; url: string; secretEnc: string; isActive: boolean };

export async function deliverDue(
  services: Services,
  opts: { dueBy: Date; ids?: string[]; limit?: number; leaseMs?: number },
): Promise<{ claimed: number; succeeded: number; failed: number; skipped: number }> {
  const { db, clock } = services;
  const none = { claimed: 0, succeeded: 0, failed: 0, skipped: 0 };
  if (opts.ids?.length === 0) return none;
  const now = clock.now();
  const due = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, 'pending'),
        lte(webhookDeliveries.nextAttemptAt, opts.dueBy),
        opts.ids ? inArray(webhookDeliveries.id, opts.ids) : undefined,
      ),
    )
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(opts.limit ?? 50)
    .for('update', { skipLocked: true });
  const claimed = await db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: new Date(now.getTime() + (opts.leaseMs ?? DELIVERY_LEASE_MS)), updatedAt: now })
    .where(inArray(webhookDeliveries.id, due))
    .returning();
  if (claimed.length === 0) return none;

  const endpoints = await loadEndpoints(services, [...new Set(claimed.map((d) => d.webhookId))]);
  const outcomes: AttemptOutcome[] = [];
  const skipped: ClaimedDelivery[] = [];
  await forEachLimit(claimed, ATTEMPT_CONCURRENCY, async (delivery) => {
    const ep = endpoints.get(delivery.webhookId);
    // Disabled (or deleted) since dispatch: not attempted, and not counted against the endpoint.
    if (!ep || !ep.endpoint.isActive) return void skipped.push(delivery);
    const at = clock.now();
    // attemptDelivery does not throw; should it ever, the attempt is recorded as failed rather than lost.
    const result = await attemptDelivery(services, ep.endpoint, ep.secret, delivery).catch(
      (err): DeliveryResult => ({ ok: false, status: null, durationMs: 0, error: `internal error: ${errorText(err)}`, bodySnippet: null }),
    );
    outcomes.push({ delivery, result, at }); // in completion order: the failure count follows it
  });
  await recordAutomaticAttempts(services, { outcomes, skipped, now: clock.now() });
  const succeeded = outcomes.filter((o) => o.result.ok).length;
  return { claimed: claimed.length, succeeded, failed: outcomes.length - succeeded, skipped: skipped.length };
}

async function loadEndpoints(services: Services, ids: string[]) {
  const rows = await services.db
    .select({
      id: webhooks.id,
      orgId: webhooks.orgId,
      url: webhooks.url,
      secretEnc: webhooks.secretEnc,
      previousSecretEnc: webhooks.previousSecretEnc,
      previousSecretExpiresAt: webhooks.previousSecretExpiresAt,
      isActive: webhooks.isActive,
    })
    .from(webhooks)
    .where(inArray(webhooks.id, ids));
  const out = new Map<string, { endpoint: Endpoint; secret: string[] }>();
  const now = services.clock.now();
  for (const r of rows) out.set(r.id, { endpoint: r, secret: await signingSecrets(services.secrets, r, now) });
  return out;
}

/**
 * One signed POST of the stored body. A URL the policy refuses now is a failed attempt without a request.
 * The signature time is the wall clock of this very request: receivers compare it with their own clock.
 */
export async function attemptDelivery(
  services: Pick<Services, 'config' | 'resolveHost'>,
  endpoint: Pick<Endpoint, 'url'>,
  /** The current secret, then a rolled-over one while it lasts (lib/webhooks/rotate_secret.ts). */
  secret: string | readonly string[],
  delivery: Pick<ClaimedDelivery, 'eventId' | 'body'>,
): Promise<DeliveryResult> {
  const checked = await checkWebhookUrl(services, endpoint.url);
  if (!checked.ok) return { ok: false, status: null, durationMs: 0, error: `refused: ${checked.reason}`, bodySnippet: null };
  const headers = await signDelivery({ secret, eventId: delivery.eventId, body: delivery.body });
  return deliverOnce({ url: checked.url.href, headers: { ...headers, 'User-Agent': USER_AGENT }, body: delivery.body });
}
