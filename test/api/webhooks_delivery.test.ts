// Events → deliveries → signed POSTs, verified by a local receiver with the stripe and standardwebhooks packages.
import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events, webhookDeliveries } from '../../schema';
import { emitEvent } from '../../lib/events/outbox';
import { verifyHit } from '../helpers/receiver';
import { newTenant, type Tenant } from '../helpers/tenant';
import { drain, webhookSuite } from '../helpers/webhook_env';

const { env, receiver } = webhookSuite();

async function hook(t: Tenant, url: string, events: string[], key?: string) {
  const r = await t.call('POST', '/v1/webhooks', { ...(key ? { key } : {}), body: { name: 'integration', url, events } });
  expect(r.status).toBe(201);
  return r.json as { webhook: { id: string }; secret: string };
}

describe('webhook delivery', () => {
  it('delivers lead.replied signed for stripe and standardwebhooks, body { id, event, created_at, data } with reply_text cut to 500', async () => {
    const t = await newTenant(env);
    const rx = await receiver();
    const { secret } = await hook(t, rx.url, ['lead.replied']);
    const longBody = `Yes, interested. ${'Tell me more about pricing and onboarding. '.repeat(60)}`;
    const ingest = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/inbound-replies`, { campaign_id: t.campaign.id, from_email: 'ann@prospect.com', body: longBody });
    expect(ingest.status).toBe(201);

    await drain(env);
    expect(rx.hits).toHaveLength(1);
    const [hit] = rx.hits;
    const body = verifyHit(hit, secret);
    expect(Object.keys(body)).toEqual(['id', 'event', 'created_at', 'data']);
    expect(body.event).toBe('lead.replied');
    expect(body.id).toMatch(/^evt_/);
    expect(body.data.reply_id).toBe(ingest.json.reply.id);
    expect(body.data.reply_text).toHaveLength(500);
    expect(longBody.startsWith(body.data.reply_text)).toBe(true);
    // One id everywhere a receiver may look for it, and the legacy body HMAC keyed with the same secret.
    expect(hit.headers['x-service-event-id']).toBe(body.id);
    expect(hit.headers['webhook-id']).toBe(body.id);
    expect(hit.headers['x-service-signature']).toBe(`sha256=${createHmac('sha256', secret).update(hit.body).digest('hex')}`);
    expect(hit.headers['content-type']).toBe('application/json');

    const list = await t.call('GET', '/v1/webhooks');
    expect(list.json.webhooks[0]).toMatchObject({ failure_count: 0, last_error: null, last_delivery_at: expect.any(String) });
  });

  it('fans one event out to every subscribed active endpoint with the same event id, and to nobody else', async () => {
    const t = await newTenant(env);
    const [a, b, updatesOnly, disabled] = [await receiver(), await receiver(), await receiver(), await receiver()];
    const ha = await hook(t, a.url, ['lead.replied', 'lead.updated']);
    const hb = await hook(t, b.url, ['lead.replied']);
    await hook(t, updatesOnly.url, ['lead.updated']);
    const hd = await hook(t, disabled.url, ['lead.replied']);
    expect((await t.call('PATCH', `/v1/webhooks/${hd.webhook.id}`, { body: { is_active: false } })).status).toBe(200);
    const other = await newTenant(env); // another organization's endpoint never sees this org's events
    const otherRx = await receiver();
    await hook(other, otherRx.url, ['lead.replied']);

    await t.reply({ body: 'Sounds good, send the deck.' });
    await drain(env);
    expect(updatesOnly.hits).toHaveLength(0);
    expect(disabled.hits).toHaveLength(0);
    expect(otherRx.hits).toHaveLength(0);
    const [ea, eb] = [verifyHit(a.hits[0], ha.secret), verifyHit(b.hits[0], hb.secret)];
    expect(ea.id).toBe(eb.id);
    expect(a.hits[0].body).toBe(b.hits[0].body);

    // Dispatching again (a sweep, a second trigger) creates no second delivery for the same pair.
    await drain(env);
    expect(a.hits).toHaveLength(1);
    const rows = await env.services.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, ea.id));
    expect(rows).toHaveLength(2);
  });

  it('delivers lead.updated from PATCH /v1/leads, and reply.approved to endpoints subscribed to reply.sent', async () => {
    const t = await newTenant(env);
    const sent = await receiver();
    const updated = await receiver();
    const hs = await hook(t, sent.url, ['reply.sent']);
    const hu = await hook(t, updated.url, ['lead.updated']);
    const { reply } = await t.reply({ body: 'Maybe later.' });
    expect((await t.call('PATCH', `/v1/leads/${reply.id}`, { body: { classification: 'hot' } })).status).toBe(200);
    const now = env.clock.now();
    await env.services.db.transaction(async (tx) => {
      await emitEvent(tx, { orgId: t.org.id, kind: 'reply.approved', at: now, data: { reply_id: reply.id, approver: 'Kim' } });
      await emitEvent(tx, { orgId: t.org.id, kind: 'reply.sent', at: now, data: { reply_id: reply.id } });
    });
    await drain(env);

    expect(updated.hits.map((h) => verifyHit(h, hu.secret).event)).toEqual(['lead.updated']);
    const u = JSON.parse(updated.hits[0].body);
    expect(u.data).toMatchObject({ reply_id: reply.id, classification: 'hot' });
    expect(sent.hits.map((h) => verifyHit(h, hs.secret).event).sort()).toEqual(['reply.approved', 'reply.sent']);
  });

  it('cuts assistant.suggested suggestion to 500 characters whoever emitted it', async () => {
    const t = await newTenant(env);
    const rx = await receiver();
    const h = await hook(t, rx.url, ['assistant.suggested']);
    await env.services.db.transaction((tx) =>
      emitEvent(tx, { orgId: t.org.id, kind: 'assistant.suggested', at: env.clock.now(), data: { suggestion: 'x'.repeat(900), strategy: 'book_call' } }),
    );
    await drain(env);
    const body = verifyHit(rx.hits[0], h.secret);
    expect(body.data.suggestion).toHaveLength(500);
    expect(body.data.strategy).toBe('book_call');
  });

  it("gives a client-locked key's webhook only that client's events", async () => {
    const t = await newTenant(env);
    const clientB = await t.addClient('Client B');
    const campaignB = await t.addCampaign(clientB.id, 'Campaign B');
    const lockedKey = await t.addKey({ client_id: clientB.id, scopes: ['webhooks.manage'] });
    const rxLocked = await receiver();
    const rxOrg = await receiver();
    const locked = await hook(t, rxLocked.url, ['lead.replied', 'lead.updated'], lockedKey);
    expect((locked as any).webhook.client_id).toBe(clientB.id);
    await hook(t, rxOrg.url, ['lead.replied']);

    await t.reply({ body: 'Client A prospect here.' }); // Campaign A belongs to Client A
    const { reply } = await t.reply({ campaign_id: campaignB.id, body: 'Client B prospect here.' });
    const now = env.clock.now();
    // An event that names only the reply is still attributed through the reply's campaign.
    await env.services.db.transaction((tx) => emitEvent(tx, { orgId: t.org.id, kind: 'lead.updated', at: now, data: { reply_id: reply.id } }));
    await drain(env);

    expect(rxOrg.hits).toHaveLength(2);
    const got = rxLocked.hits.map((h) => verifyHit(h, locked.secret));
    expect(got.map((e) => e.event).sort()).toEqual(['lead.replied', 'lead.updated']);
    expect(got.find((e) => e.event === 'lead.replied')!.data.campaign_id).toBe(campaignB.id);
  });

  it('marks every event dispatched, including kinds nobody subscribed to', async () => {
    const t = await newTenant(env);
    await t.reply();
    await drain(env);
    const pending = await env.services.db.select().from(events).where(eq(events.orgId, t.org.id));
    expect(pending.every((e) => e.dispatchedAt !== null)).toBe(true);
  });
});
