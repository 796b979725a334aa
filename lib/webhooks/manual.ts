// What an integrator does by hand: send a signed test.ping, redeliver (replay) an event, read the attempt log.
// Manual attempts are one synchronous try each; they show in the log and in last_delivery_at (a success) /
// last_error (a failure), so in last_attempt_at, but never move the failure count, which measures the automatic
// deliveries.
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { events, webhookAttempts, webhookDeliveries, webhooks } from '../../schema';
import type { AuthContext } from '../auth/keys';
import { randomToken } from '../crypto/secrets';
import type { Db } from '../db/types';
import { ApiError, notFound } from '../errors';
import type { Services } from '../services';
import { attemptDelivery } from './attempt';
import type { DeliveryResult } from './deliver';
import { eventClients } from './dispatch';
import { findWebhook } from './manage';
import { lastErrorOf } from './record';
import { signingSecrets } from './rotate_secret';
import { eventBody, isSubscribed } from './views';

type Hook = typeof webhooks.$inferSelect;

function manualView(eventId: string, kind: string, r: DeliveryResult) {
  return { delivered: r.ok, event_id: eventId, event: kind, http_status: r.status, duration_ms: r.durationMs, error: r.error, response_body: r.bodySnippet };
}

async function recordManual(db: Db, hook: Hook, delivery: { id: string }, trigger: 'test' | 'redeliver', r: DeliveryResult, at: Date) {
  await db.transaction(async (tx) => {
    await tx.insert(webhookAttempts).values({ deliveryId: delivery.id, webhookId: hook.id, attempt: 0, trigger, ok: r.ok, httpStatus: r.status, durationMs: r.durationMs, error: r.error, at });
    if (r.ok) await tx.update(webhookDeliveries).set({ status: 'succeeded', nextAttemptAt: null, updatedAt: at }).where(eq(webhookDeliveries.id, delivery.id));
    // A success is the latest delivery, a failure the latest error (and either the latest attempt), never moving back.
    const stamp = at.toISOString();
    await tx
      .update(webhooks)
      .set(
        r.ok
          ? { lastDeliveryAt: sql`greatest(${webhooks.lastDeliveryAt}, ${stamp}::timestamptz)` }
          : {
              lastError: sql`case when ${webhooks.lastError} is null or (${webhooks.lastError} ->> 'at')::timestamptz <= ${stamp}::timestamptz
                then ${JSON.stringify(lastErrorOf(r, at))}::jsonb else ${webhooks.lastError} end`,
            },
      )
      .where(eq(webhooks.id, hook.id));
  });
}

/** A signed `test.ping` to this endpoint only, even while it is disabled (to check it before re-enabling). */
export async function testWebhook({ services, auth, id }: { services: Services; auth: AuthContext; id: string }) {
  const { db, clock } = services;
  const hook = await findWebhook(db, auth, id);
  const at = clock.now();
  const eventId = `evt_${randomToken(24, 'base62')}`;
  const body = eventBody({ id: eventId, kind: 'test.ping', createdAt: at, data: { webhook_id: hook.id, message: 'Test delivery: your endpoint is reachable and can verify our signature.' } });
  const result = await attemptDelivery(services, hook, await signingSecrets(services.secrets, hook, clock.now()), { eventId, body });
  const [delivery] = await db
    .insert(webhookDeliveries)
    .values({ orgId: hook.orgId, webhookId: hook.id, eventId, eventKind: 'test.ping', body, status: result.ok ? 'succeeded' : 'failed', createdAt: at, updatedAt: at })
    .returning({ id: webhookDeliveries.id });
  await recordManual(db, hook, delivery, 'test', result, at);
  return manualView(eventId, 'test.ping', result);
}

/**
 * Sends an event to this endpoint again: the same id and the same stored body, signed anew. An event the endpoint
 * never got (created before the endpoint, or while it was disabled) is replayed with the body every endpoint got.
 */
export async function redeliverEvent({ services, auth, id, eventId }: { services: Services; auth: AuthContext; id: string; eventId: string }) {
  const { db, clock } = services;
  const hook = await findWebhook(db, auth, id);
  const delivery = (await findDelivery(db, hook.id, eventId)) ?? (await replayDelivery(db, hook, eventId, clock.now()));
  const at = clock.now();
  const result = await attemptDelivery(services, hook, await signingSecrets(services.secrets, hook, clock.now()), delivery);
  await recordManual(db, hook, delivery, 'redeliver', result, at);
  return manualView(eventId, delivery.eventKind, result);
}

async function findDelivery(db: Db, webhookId: string, eventId: string) {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.webhookId, webhookId), eq(webhookDeliveries.eventId, eventId)));
  return row;
}

async function replayDelivery(db: Db, hook: Hook, eventId: string, now: Date) {
  const [event] = await db
    .select()
    .from(events)
    .where(and(eq(events.id, eventId), eq(events.orgId, hook.orgId)));
  // A client's endpoint never sees another client's events, not even by id.
  if (!event || (hook.clientId && (await eventClients(db, [event])).get(event.id) !== hook.clientId)) throw notFound('event');
  if (!isSubscribed(hook.events, event.kind)) throw new ApiError('validation_error', `event_id: this webhook is not subscribed to ${event.kind}`);
  await db
    .insert(webhookDeliveries)
    .values({ orgId: hook.orgId, webhookId: hook.id, eventId, eventKind: event.kind, body: eventBody(event), status: 'failed', createdAt: now, updatedAt: now })
    .onConflictDoNothing();
  return (await findDelivery(db, hook.id, eventId))!;
}

/** The attempt log of one endpoint, newest first. */
export async function listAttempts({ db, auth, id, limit, offset, eventId }: { db: Db; auth: AuthContext; id: string; limit: number; offset: number; eventId?: string }) {
  const hook = await findWebhook(db, auth, id);
  const where = and(eq(webhookAttempts.webhookId, hook.id), eventId ? eq(webhookDeliveries.eventId, eventId) : undefined);
  const list = await db
    .select({ a: webhookAttempts, d: { id: webhookDeliveries.id, eventId: webhookDeliveries.eventId, kind: webhookDeliveries.eventKind, status: webhookDeliveries.status, next: webhookDeliveries.nextAttemptAt } })
    .from(webhookAttempts)
    .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId))
    .where(where)
    .orderBy(desc(webhookAttempts.at), desc(webhookAttempts.id))
    .limit(limit)
    .offset(offset);
  const [{ total }] = await db
    .select({ total: count() })
    .from(webhookAttempts)
    .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId))
    .where(where);
  const items = list.map(({ a, d }) => ({
    id: a.id,
    delivery_id: d.id,
    event_id: d.eventId,
    event: d.kind,
    trigger: a.trigger,
    attempt: a.trigger === 'automatic' ? a.attempt : null,
    status: a.ok ? ('succeeded' as const) : ('failed' as const),
    http_status: a.httpStatus,
    duration_ms: a.durationMs,
    error: a.error,
    at: a.at.toISOString(),
    delivery_status: d.status,
    next_attempt_at: d.status === 'pending' ? (d.next?.toISOString() ?? null) : null,
  }));
  return { items, total };
}
