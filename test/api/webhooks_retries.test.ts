// Retries on the service's own schedule (WEBHOOK_RETRY_DELAYS[i] after the (i+1)-th failure; failed after the last),
// with the stored body and event id unchanged on every attempt. Time moves with the test clock.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveries } from '../../schema';
import type { TestEnv } from '../helpers/harness';
import { verifyHit, type Answer } from '../helpers/receiver';
import { newTenant, type Tenant } from '../helpers/tenant';
import { drain, startWebhookEnv, webhookSuite } from '../helpers/webhook_env';

const { env, receiver } = webhookSuite();

async function setup(answer: (n: number) => Answer, e: TestEnv = env) {
  const t = await newTenant(e);
  const rx = await receiver(answer);
  const created = await t.call('POST', '/v1/webhooks', { body: { name: 'n', url: rx.url, events: ['lead.replied'] } });
  await t.reply();
  return { t, rx, id: created.json.webhook.id as string, secret: created.json.secret as string };
}

const minutes = (n: number) => n * 60_000;
const deliveryOf = async (e: TestEnv, t: Tenant) => (await e.services.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.orgId, t.org.id)))[0];

describe('webhook retries', () => {
  it('retries 1 and 5 minutes after failures with the same stored body and event id, then succeeds and resets the count', async () => {
    const { t, rx, id, secret } = await setup((n) => (n <= 2 ? { status: 500, body: 'boom: database down' } : { status: 200 }));
    await drain(env);
    expect(rx.hits).toHaveLength(1);
    const first = await deliveryOf(env, t);
    expect(first).toMatchObject({ status: 'pending', attempts: 1 });
    expect(first.nextAttemptAt!.getTime() - env.clock.now().getTime()).toBeGreaterThan(minutes(1) - 5_000);

    env.clock.advance(minutes(1) - 5_000);
    await drain(env);
    expect(rx.hits).toHaveLength(1); // not yet due
    env.clock.advance(5_000);
    await drain(env);
    expect(rx.hits).toHaveLength(2);
    expect((await t.call('GET', `/v1/webhooks/${id}`)).json.webhook).toMatchObject({
      failure_count: 2,
      last_error: { status: 500, body: 'boom: database down', error: 'HTTP 500' },
    });

    env.clock.advance(minutes(5));
    await drain(env);
    expect(rx.hits).toHaveLength(3);
    const bodies = rx.hits.map((h) => h.body);
    expect(new Set(bodies).size).toBe(1); // byte-identical
    const ids = rx.hits.map((h) => verifyHit(h, secret).id);
    expect(new Set(ids).size).toBe(1);
    expect(rx.hits.every((h) => h.headers['x-service-event-id'] === ids[0])).toBe(true);
    expect(await deliveryOf(env, t)).toMatchObject({ status: 'succeeded', attempts: 3, nextAttemptAt: null, body: bodies[0] });

    const hook = (await t.call('GET', `/v1/webhooks/${id}`)).json.webhook;
    expect(hook.failure_count).toBe(0);
    expect(hook.last_error).toMatchObject({ status: 500 }); // the latest *failed* delivery stays visible
    const log = (await t.call('GET', `/v1/webhooks/${id}/deliveries`)).json;
    expect(log.deliveries.map((d: any) => [d.attempt, d.status, d.http_status])).toEqual([
      [3, 'succeeded', 200],
      [2, 'failed', 500],
      [1, 'failed', 500],
    ]);
    expect(log.deliveries.every((d: any) => d.event_id === ids[0] && d.event === 'lead.replied' && d.delivery_status === 'succeeded')).toBe(true);
  });

  it('gives up after the third retry (30 minutes): 4 attempts, then failed and never tried again', async () => {
    const { t, rx } = await setup(() => ({ status: 503 }));
    await drain(env);
    for (const wait of [1, 5, 30]) {
      env.clock.advance(minutes(wait));
      await drain(env);
    }
    expect(rx.hits).toHaveLength(4);
    expect(await deliveryOf(env, t)).toMatchObject({ status: 'failed', attempts: 4, nextAttemptAt: null });
    env.clock.advance(minutes(24 * 60));
    await drain(env);
    expect(rx.hits).toHaveLength(4);
  });

  it('counts network errors (connection refused) like any failure', async () => {
    const { t, rx, id } = await setup(() => ({ status: 200 }));
    await rx.close();
    await drain(env);
    const hook = (await t.call('GET', `/v1/webhooks/${id}`)).json.webhook;
    expect(hook.failure_count).toBe(1);
    expect(hook.last_error.status).toBeNull();
    expect(hook.last_error.error).toMatch(/ECONNREFUSED|fetch failed/);
    expect(await deliveryOf(env, t)).toMatchObject({ status: 'pending', attempts: 1 });
  });
});

describe('WEBHOOK_RETRY_DELAYS', () => {
  let custom: TestEnv;
  beforeAll(async () => {
    custom = await startWebhookEnv({ WEBHOOK_RETRY_DELAYS: '10,20' });
  });
  afterAll(() => custom.close());

  it('is the wait after each failed attempt; after the last one the delivery fails', async () => {
    const { t, rx } = await setup(() => ({ status: 500 }), custom);
    await drain(custom);
    const d1 = await deliveryOf(custom, t);
    expect(Math.round((d1.nextAttemptAt!.getTime() - custom.clock.now().getTime()) / 1000)).toBeGreaterThanOrEqual(9);
    custom.clock.advance(10_000);
    await drain(custom);
    custom.clock.advance(15_000);
    await drain(custom);
    expect(rx.hits).toHaveLength(2);
    custom.clock.advance(5_000);
    await drain(custom);
    expect(rx.hits).toHaveLength(3);
    expect(await deliveryOf(custom, t)).toMatchObject({ status: 'failed', attempts: 3 });
  });
});
