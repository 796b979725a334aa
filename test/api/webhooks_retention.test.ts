// The webhook history (events, deliveries, attempts) holds prospects' addresses and reply text: it is kept for
// WEBHOOK_HISTORY_DAYS and then deleted by the sweep, pending deliveries excepted. Time moves with the test clock.
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events, webhookAttempts, webhookDeliveries } from '../../schema';
import { runHandler } from '../../lib/queue/run';
import { pruneWebhookHistory, WEBHOOK_HISTORY_DAYS } from '../../lib/webhooks/prune';
import { SWEEP_JOB } from '../../lib/webhooks/jobs';
import { jobHandlers } from '../../functions/jobs/handlers';
import { newTenant, type Tenant } from '../helpers/tenant';
import { drain, webhookSuite } from '../helpers/webhook_env';

const { env, receiver } = webhookSuite();

const days = (n: number) => n * 86_400_000;

async function deliveredReply(t: Tenant) {
  const ofOrg = () => env.services.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.orgId, t.org.id));
  const before = new Set((await ofOrg()).map((d) => d.id));
  await t.reply();
  await drain(env);
  const added = (await ofOrg()).filter((d) => !before.has(d.id));
  expect(added.map((d) => d.status)).toEqual(['succeeded']);
  return { delivery: added[0] };
}

const exists = async (deliveryId: string, eventId: string) => ({
  delivery: (await env.services.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId))).length === 1,
  attempts: (await env.services.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, deliveryId))).length,
  event: (await env.services.db.select().from(events).where(eq(events.id, eventId))).length === 1,
});

describe('webhook history retention', () => {
  it(`deletes finished deliveries, their attempts and dispatched events older than ${WEBHOOK_HISTORY_DAYS} days, nothing newer and nothing pending`, async () => {
    const t = await newTenant(env);
    const rx = await receiver();
    expect((await t.call('POST', '/v1/webhooks', { body: { name: 'crm', url: rx.url, events: ['lead.replied'] } })).status).toBe(201);

    const old = await deliveredReply(t);
    env.clock.advance(days(20));
    const recent = await deliveredReply(t);
    env.clock.advance(days(WEBHOOK_HISTORY_DAYS - 20) + 60_000);
    expect(await exists(old.delivery.id, old.delivery.eventId)).toEqual({ delivery: true, attempts: 1, event: true });

    await pruneWebhookHistory(env.services.db, env.clock.now());
    expect(await exists(old.delivery.id, old.delivery.eventId)).toEqual({ delivery: false, attempts: 0, event: false });
    expect(await exists(recent.delivery.id, recent.delivery.eventId)).toEqual({ delivery: true, attempts: 1, event: true });

    // A delivery still pending is kept whatever its age (its own stored body is what the next attempt sends).
    await env.services.db.update(webhookDeliveries).set({ status: 'pending', nextAttemptAt: new Date(env.clock.now().getTime() + days(365)) }).where(eq(webhookDeliveries.id, recent.delivery.id));
    env.clock.advance(days(WEBHOOK_HISTORY_DAYS + 10));
    await pruneWebhookHistory(env.services.db, env.clock.now());
    expect((await exists(recent.delivery.id, recent.delivery.eventId)).delivery).toBe(true);
  });

  it('deletes at most the given number of rows per run, and the sweep job prunes', async () => {
    const t = await newTenant(env);
    const rx = await receiver();
    expect((await t.call('POST', '/v1/webhooks', { body: { name: 'crm', url: rx.url, events: ['lead.replied'] } })).status).toBe(201);
    const made = [await deliveredReply(t), await deliveredReply(t), await deliveredReply(t)];
    env.clock.advance(days(WEBHOOK_HISTORY_DAYS + 1));

    const first = await pruneWebhookHistory(env.services.db, env.clock.now(), 1);
    expect(first.deliveries).toBe(1);
    const ids = made.map((m) => m.delivery.id);
    expect(await env.services.db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.id, ids))).toHaveLength(2);

    await runHandler(jobHandlers, SWEEP_JOB, {}, { services: env.services, attempt: 1 });
    expect(await env.services.db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.id, ids))).toHaveLength(0);
  });
});
