// What integrators do by hand: POST /test (a signed test.ping to that endpoint only), GET /deliveries (the attempt
// log) and POST /redeliver (the same event id and stored body, signed anew; also a replay of a missed event).
import { describe, expect, it } from 'vitest';
import { verifyHit, type Answer } from '../helpers/receiver';
import { newTenant, type Tenant } from '../helpers/tenant';
import { drain, webhookSuite } from '../helpers/webhook_env';

const { env, receiver } = webhookSuite();

async function endpoint(t: Tenant, events = ['lead.replied']) {
  let answer: Answer = { status: 200, body: 'thanks' };
  const rx = await receiver(() => answer);
  const r = await t.call('POST', '/v1/webhooks', { body: { name: 'n', url: rx.url, events } });
  expect(r.status).toBe(201);
  return { rx, id: r.json.webhook.id as string, secret: r.json.secret as string, answer: (a: Answer) => (answer = a) };
}

describe('POST /v1/webhooks/{id}/test', () => {
  it('sends a signed test.ping to that endpoint only and reports the answer', async () => {
    const t = await newTenant(env);
    const a = await endpoint(t);
    const b = await endpoint(t);
    const r = await t.call('POST', `/v1/webhooks/${a.id}/test`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      delivered: true,
      event_id: expect.stringMatching(/^evt_/),
      event: 'test.ping',
      http_status: 200,
      duration_ms: expect.any(Number),
      error: null,
      response_body: 'thanks',
    });
    expect(b.rx.hits).toHaveLength(0);
    const ping = verifyHit(a.rx.hits[0], a.secret);
    expect(ping).toMatchObject({ id: r.json.event_id, event: 'test.ping', data: { webhook_id: a.id } });
    expect(a.rx.hits[0].headers['x-service-event-id']).toBe(r.json.event_id);
    // A later dispatch never sends it again, to anyone.
    await drain(env);
    expect(a.rx.hits).toHaveLength(1);
    expect(b.rx.hits).toHaveLength(0);
  });

  it('works while the endpoint is disabled and never moves failure_count', async () => {
    const t = await newTenant(env);
    const a = await endpoint(t);
    await t.call('PATCH', `/v1/webhooks/${a.id}`, { body: { is_active: false } });
    a.answer({ status: 502, body: 'bad gateway' });
    const failed = await t.call('POST', `/v1/webhooks/${a.id}/test`);
    expect(failed.json).toMatchObject({ delivered: false, http_status: 502, error: 'HTTP 502', response_body: 'bad gateway' });
    const hook = (await t.call('GET', `/v1/webhooks/${a.id}`)).json.webhook;
    // last_delivery_at is the last successful delivery (none yet); the failed test attempt has its own time.
    expect(hook).toMatchObject({ is_active: false, failure_count: 0, last_error: { status: 502, body: 'bad gateway' }, last_delivery_at: null, last_attempt_at: expect.any(String) });
  });
});

describe('GET /v1/webhooks/{id}/deliveries', () => {
  it('lists attempts newest first with event id, kind, outcome, status, duration and error; pages and filters by event', async () => {
    const t = await newTenant(env);
    const a = await endpoint(t);
    a.answer({ status: 500, body: 'down' });
    await t.reply({ body: 'first' });
    await drain(env);
    a.answer({ status: 200 });
    await t.reply({ body: 'second' });
    await drain(env);
    await t.call('POST', `/v1/webhooks/${a.id}/test`);

    const all = await t.call('GET', `/v1/webhooks/${a.id}/deliveries`);
    expect(all.status).toBe(200);
    expect(all.json).toMatchObject({ count: 3, total_count: 3, limit: 50, offset: 0, has_more: false });
    const [ping, second, first] = all.json.deliveries;
    expect(ping).toMatchObject({ event: 'test.ping', trigger: 'test', attempt: null, status: 'succeeded', delivery_status: 'succeeded' });
    expect(second).toMatchObject({ event: 'lead.replied', trigger: 'automatic', attempt: 1, status: 'succeeded', http_status: 200, error: null });
    expect(first).toMatchObject({
      event: 'lead.replied',
      attempt: 1,
      status: 'failed',
      http_status: 500,
      error: 'HTTP 500',
      delivery_status: 'pending',
      next_attempt_at: expect.any(String),
      duration_ms: expect.any(Number),
    });
    expect(first.event_id).toBe(verifyHit(a.rx.hits[0], a.secret).id);

    const page = await t.call('GET', `/v1/webhooks/${a.id}/deliveries?limit=1&offset=1`);
    expect(page.json).toMatchObject({ count: 1, total_count: 3, has_more: true });
    expect(page.json.deliveries[0].id).toBe(second.id);
    const one = await t.call('GET', `/v1/webhooks/${a.id}/deliveries?event_id=${first.event_id}`);
    expect(one.json.deliveries.map((d: any) => d.id)).toEqual([first.id]);
    expect((await t.call('GET', `/v1/webhooks/${a.id}/deliveries?limit=101`)).status).toBe(400);
  });
});

describe('POST /v1/webhooks/{id}/redeliver', () => {
  it('sends the same event id and stored body again, signed anew; success closes a failed delivery', async () => {
    const t = await newTenant(env);
    const a = await endpoint(t);
    a.answer({ status: 500 });
    await t.reply({ body: 'please resend me' });
    await drain(env);
    for (const wait of [1, 5, 30]) {
      env.clock.advance(wait * 60_000);
      await drain(env);
    }
    const eventId = verifyHit(a.rx.hits[0], a.secret).id;
    const log = (await t.call('GET', `/v1/webhooks/${a.id}/deliveries?event_id=${eventId}`)).json.deliveries;
    expect(log[0].delivery_status).toBe('failed');

    a.answer({ status: 200 });
    const r = await t.call('POST', `/v1/webhooks/${a.id}/redeliver`, { body: { event_id: eventId } });
    expect(r.json).toMatchObject({ delivered: true, event_id: eventId, event: 'lead.replied', http_status: 200 });
    const hits = a.rx.hits;
    expect(hits).toHaveLength(5);
    expect(hits[4].body).toBe(hits[0].body);
    expect(verifyHit(hits[4], a.secret).id).toBe(eventId);
    const after = (await t.call('GET', `/v1/webhooks/${a.id}/deliveries?event_id=${eventId}`)).json.deliveries;
    expect(after[0]).toMatchObject({ trigger: 'redeliver', status: 'succeeded', delivery_status: 'succeeded' });
    // Manual attempts leave the automatic failure count alone.
    expect((await t.call('GET', `/v1/webhooks/${a.id}`)).json.webhook.failure_count).toBe(4);
  });

  it('replays an event the endpoint never got with the body other endpoints got; refuses unknown and unsubscribed events', async () => {
    const t = await newTenant(env);
    const early = await endpoint(t);
    await t.reply({ body: 'before the second endpoint existed' });
    await drain(env);
    const late = await endpoint(t);
    const updatesOnly = await endpoint(t, ['lead.updated']);
    const eventId = verifyHit(early.rx.hits[0], early.secret).id;

    const r = await t.call('POST', `/v1/webhooks/${late.id}/redeliver`, { body: { event_id: eventId } });
    expect(r.json).toMatchObject({ delivered: true, event_id: eventId });
    expect(late.rx.hits[0].body).toBe(early.rx.hits[0].body);
    expect(verifyHit(late.rx.hits[0], late.secret).id).toBe(eventId);

    const unknown = await t.call('POST', `/v1/webhooks/${late.id}/redeliver`, { body: { event_id: 'evt_doesnotexist' } });
    expect(unknown.status).toBe(404);
    const unsubscribed = await t.call('POST', `/v1/webhooks/${updatesOnly.id}/redeliver`, { body: { event_id: eventId } });
    expect(unsubscribed.status).toBe(400);
    expect(unsubscribed.json.error.message).toMatch(/not subscribed to lead\.replied/);
    // Another organization's event id is unknown here, not forbidden.
    const other = await newTenant(env);
    const otherHook = await endpoint(other);
    expect((await other.call('POST', `/v1/webhooks/${otherHook.id}/redeliver`, { body: { event_id: eventId } })).status).toBe(404);
    expect(otherHook.rx.hits).toHaveLength(0);
  });
});
