// Failure counting: every failed attempt counts, across events; any success resets to 0; 10 in a row disable the
// endpoint (is_active false, disabled_reason set, a Decision Trail row); PATCH is_active re-enables with the same secret.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { decisions, webhookDeliveries } from '../../schema';
import { verifyHit, type Answer } from '../helpers/receiver';
import { newTenant } from '../helpers/tenant';
import { drain, webhookSuite } from '../helpers/webhook_env';

const { env, receiver } = webhookSuite();

async function setup() {
  const t = await newTenant(env);
  let answer: Answer = { status: 500, body: 'nope' };
  const rx = await receiver(() => answer);
  const created = await t.call('POST', '/v1/webhooks', { body: { name: 'n', url: rx.url, events: ['lead.replied'] } });
  const get = async () => (await t.call('GET', `/v1/webhooks/${created.json.webhook.id}`)).json.webhook;
  /** n new events, each delivered (attempted) once. */
  const events = async (n: number) => {
    for (let i = 0; i < n; i++) await t.reply({ body: `Reply number ${i}` });
    await drain(env);
  };
  return { t, rx, id: created.json.webhook.id as string, secret: created.json.secret as string, get, events, answer: (a: Answer) => (answer = a) };
}

describe('failure counting and auto-disable', () => {
  it('disables the endpoint after 10 consecutive failed attempts across events', async () => {
    const s = await setup();
    await s.events(9);
    expect(await s.get()).toMatchObject({ failure_count: 9, is_active: true, disabled_reason: null });
    await s.events(1);
    const hook = await s.get();
    expect(hook).toMatchObject({ failure_count: 10, is_active: false, last_error: { status: 500, body: 'nope' } });
    expect(hook.disabled_reason).toMatch(/10 consecutive failed deliveries.*HTTP 500/);
    const trail = await env.services.db
      .select()
      .from(decisions)
      .where(and(eq(decisions.orgId, s.t.org.id), eq(decisions.action, 'webhook.auto_disabled')));
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({ actor: 'system', detail: { webhook_id: s.id, failure_count: 10 } });

    // Disabled: new events are not delivered to it, and the pending retries are dropped instead of attempted.
    s.answer({ status: 200 });
    await s.events(2);
    env.clock.advance(60 * 60_000);
    await drain(env);
    expect(s.rx.hits).toHaveLength(10);
    const rows = await env.services.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, s.id));
    expect(rows).toHaveLength(10);
    expect(rows.every((r) => r.status === 'failed' && r.attempts === 1)).toBe(true);
  });

  it('any success resets the count to 0: 9 failures, a success, 9 failures leave it active', async () => {
    const s = await setup();
    await s.events(9);
    s.answer({ status: 204 });
    await s.events(1);
    expect(await s.get()).toMatchObject({ failure_count: 0, is_active: true });
    s.answer({ status: 500 });
    await s.events(9);
    expect(await s.get()).toMatchObject({ failure_count: 9, is_active: true });
  });

  it('counts retries too: 3 events failing 4 times each disable it', async () => {
    const s = await setup();
    await s.events(3); // attempts 1..3
    for (const wait of [1, 5, 30]) {
      env.clock.advance(wait * 60_000);
      await drain(env);
    }
    // The last three retries went out together (one batch), so the count passes 10 by the rest of that batch.
    expect(s.rx.hits).toHaveLength(12);
    expect(await s.get()).toMatchObject({ failure_count: 12, is_active: false });
  });

  it('re-enabling resets the count, clears the reason and keeps the secret: the next event verifies with it', async () => {
    const s = await setup();
    await s.events(10);
    expect((await s.get()).is_active).toBe(false);
    const on = await s.t.call('PATCH', `/v1/webhooks/${s.id}`, { body: { is_active: true } });
    expect(on.json.webhook).toMatchObject({ is_active: true, failure_count: 0, disabled_reason: null });

    s.answer({ status: 200 });
    await s.t.reply({ body: 'After the fix.' });
    await drain(env);
    const last = s.rx.hits.at(-1)!;
    expect(verifyHit(last, s.secret).data.reply_text).toBe('After the fix.');
    expect(await s.get()).toMatchObject({ failure_count: 0, is_active: true });
  });
});
