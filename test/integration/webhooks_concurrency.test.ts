// Recording webhook attempts from many delivery jobs at once, on real PostgreSQL (Neon driver, a pool of 10); PGlite
// runs one transaction at a time and cannot show it. Each batch inserts attempt rows (whose foreign key takes a
// KEY SHARE lock on every endpoint row of the batch) and then updates those endpoints' failure counts. Locking the
// endpoints FOR UPDATE conflicted with the other batches' KEY SHARE locks, so two batches over the same endpoints
// deadlocked and one job failed with 40P01 (found by `npm run bench:webhooks` on PostgreSQL).
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { webhookAttempts, webhookDeliveries, webhooks } from '../../schema';
import { emitEvent } from '../../lib/events/outbox';
import { dispatchEvents } from '../../lib/webhooks/dispatch';
import { recordAutomaticAttempts, type AttemptOutcome } from '../../lib/webhooks/record';
import { TIER } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';
import { webhookSuite } from '../helpers/webhook_env';

const ENDPOINTS = 10;
const BATCHES = 8;
const PER_BATCH = 25;

const { env } = webhookSuite({ integrationOnly: true });

describe.skipIf(TIER !== 'integration')('concurrent webhook attempt recording (real PostgreSQL)', () => {
  it(`${BATCHES} batches over the same ${ENDPOINTS} endpoints recorded at once, 5 rounds: none fails, every count is right`, async () => {
    const t = await newTenant(env);
    for (let i = 0; i < ENDPOINTS; i++) {
      const r = await t.call('POST', '/v1/webhooks', { body: { name: `hook ${i}`, url: `https://hooks${i}.example.com/in`, events: ['lead.replied'] } });
      expect(r.status).toBe(201);
    }
    const now = env.clock.now();
    const rounds = 5;
    const eventsNeeded = (rounds * BATCHES * PER_BATCH) / ENDPOINTS;
    await env.services.db.transaction(async (tx) => {
      for (let i = 0; i < eventsNeeded; i++) await emitEvent(tx, { orgId: t.org.id, kind: 'lead.replied', data: { n: i }, at: now });
    });
    await dispatchEvents({ db: env.services.db, queue: env.services.queue, log: env.services.log }, { now });
    const deliveries = await env.services.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.orgId, t.org.id));
    expect(deliveries).toHaveLength(rounds * BATCHES * PER_BATCH);

    // Batches interleave the endpoints in different orders, as jobs built from different events do.
    for (let round = 0; round < rounds; round++) {
      const slice = deliveries.slice(round * BATCHES * PER_BATCH, (round + 1) * BATCHES * PER_BATCH);
      const batches = Array.from({ length: BATCHES }, (_, b) => {
        const mine = slice.slice(b * PER_BATCH, (b + 1) * PER_BATCH);
        return b % 2 === 0 ? mine : [...mine].reverse();
      });
      const at = env.clock.now();
      const results = await Promise.allSettled(
        batches.map((batch) =>
          recordAutomaticAttempts(env.services, {
            outcomes: batch.map(
              (d): AttemptOutcome => ({
                delivery: { id: d.id, orgId: d.orgId, webhookId: d.webhookId, eventId: d.eventId, attempts: 0 },
                result: { ok: false, status: 500, durationMs: 1, error: null, bodySnippet: 'down' },
                at,
              }),
            ),
            skipped: [],
            now: at,
          }),
        ),
      );
      expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason?.cause ?? (r as PromiseRejectedResult).reason))).toEqual([]);
    }

    // Every attempt recorded once, and each endpoint counted every failure (then was disabled at 10).
    const attempts = await env.services.db.select().from(webhookAttempts).innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId)).where(eq(webhookDeliveries.orgId, t.org.id));
    expect(attempts).toHaveLength(rounds * BATCHES * PER_BATCH);
    const hooks = await env.services.db.select().from(webhooks).where(eq(webhooks.orgId, t.org.id));
    const perHook = (rounds * BATCHES * PER_BATCH) / ENDPOINTS;
    for (const h of hooks) {
      expect(h.failureCount).toBe(perHook);
      expect(h.isActive).toBe(false);
    }
  });
});
