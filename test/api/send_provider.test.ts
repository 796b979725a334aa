// The sending-provider port behind governed sends: the outbox default, the signed http provider (a local
// node:http receiver), its failure paths (always 502, nothing marked sent, the draft stays; a refusal or a service
// never reached is `not_sent` and gives the cooldown back, a 5xx, timeout or dropped connection is `unknown` and
// keeps it) and its admin routes.
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { campaigns, replies, sendingProviders } from '../../schema';
import { generateWebhookSecret, verifyServiceSignature } from '../../lib/webhooks/signing';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant, type Tenant } from '../helpers/tenant';
import { eventsOf, keyAt, outbox, startReceiver, trail } from './send_helpers';

let env: TestEnv;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  env = await startTestEnv();
  receiver = await startReceiver();
});
afterEach(() => {
  receiver.hits.length = 0;
  receiver.setStatus(200);
});
afterAll(async () => {
  await receiver.close();
  await env.close();
});

const useHttp = (t: Tenant, secret?: string, url = receiver.url) => t.admin('PUT', `/admin/v1/orgs/${t.org.id}/sending-provider`, { kind: 'http', url, ...(secret ? { secret } : {}) });
const thread = async (t: Tenant, id: string) => (await t.call('GET', `/v1/replies/${id}`)).json.thread.map((m: any) => m.role);

describe('http provider', () => {
  it('POSTs the reply with its thread fields (unknown ones null), signed like a webhook; the receiver verifies the signature', async () => {
    const t = await newTenant(env);
    const secret = generateWebhookSecret();
    const put = await useHttp(t, secret);
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ provider: { kind: 'http', url: receiver.url, signed: true } });
    const { reply } = await t.reply({ from_email: 'ana@prospect.io' });
    const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { key: await keyAt(t, 2), body: { body: 'Thursday works — Ana, see invite.' } });
    expect(r.status).toBe(200);
    expect(receiver.hits).toHaveLength(1);
    const hit = receiver.hits[0];
    // Ingested through the admin route: no subject, Message-IDs, provider campaign or mailbox are known.
    expect(JSON.parse(hit.body)).toEqual({
      reply_id: reply.id,
      to_email: 'ana@prospect.io',
      body: 'Thursday works — Ana, see invite.',
      subject: null,
      in_reply_to: null,
      references: null,
      campaign_id: t.campaign.id,
      provider_campaign_id: null,
      from_email: null,
    });
    expect(hit.headers['content-type']).toBe('application/json');
    expect(hit.headers['x-service-event-id']).toBe(`msg_${reply.id}`);
    const header = hit.headers['x-service-webhook-signature'] as string;
    expect(await verifyServiceSignature({ secret, header, body: hit.body })).toMatchObject({ ok: true });
    expect(await verifyServiceSignature({ secret: generateWebhookSecret(), header, body: hit.body })).toMatchObject({ ok: false });
    expect(await verifyServiceSignature({ secret, header, body: hit.body.replace('Thursday', 'Friday') })).toMatchObject({ ok: false });
    expect(await outbox(t)).toEqual([]); // the outbox records only what the outbox provider "sent"
    expect((await trail(t, reply.id))[0].detail).toMatchObject({ provider: 'http' });
  });

  it("carries what answering in the prospect's thread needs: Re: subject, In-Reply-To, References, campaign ids, our mailbox", async () => {
    const t = await newTenant(env);
    await useHttp(t);
    await env.services.db.update(campaigns).set({ providerCampaignId: 'cmp_42' }).where(eq(campaigns.id, t.campaign.id));
    const { reply } = await t.reply({ from_email: 'ana@prospect.io', subject: 'Our proposal' });
    // The thread columns an inbound webhook fills, written directly: this test is about what the provider is sent.
    await env.services.db
      .update(replies)
      .set({ rfcMessageId: '<p2@prospect.io>', inReplyTo: '<c1@agency.com>', references: '<c0@agency.com> <c1@agency.com>', toEmail: 'sam@agency.com' })
      .where(eq(replies.id, reply.id));
    expect((await t.call('POST', `/v1/replies/${reply.id}/send`, { key: await keyAt(t, 2), body: { body: 'Great' } })).status).toBe(200);
    expect(JSON.parse(receiver.hits[0].body)).toEqual({
      reply_id: reply.id,
      to_email: 'ana@prospect.io',
      body: 'Great',
      subject: 'Re: Our proposal',
      in_reply_to: '<p2@prospect.io>',
      references: '<c0@agency.com> <c1@agency.com> <p2@prospect.io>',
      campaign_id: t.campaign.id,
      provider_campaign_id: 'cmp_42',
      from_email: 'sam@agency.com',
    });
  });

  it('sends unsigned without a secret; the secret is stored encrypted', async () => {
    const t = await newTenant(env);
    expect((await useHttp(t)).json).toEqual({ provider: { kind: 'http', url: receiver.url, signed: false } });
    const { reply } = await t.reply();
    expect((await t.call('POST', `/v1/replies/${reply.id}/send`, { key: await keyAt(t, 2), body: { body: 'hi' } })).status).toBe(200);
    expect(receiver.hits[0].headers['x-service-webhook-signature']).toBeUndefined();

    const secret = generateWebhookSecret();
    await useHttp(t, secret);
    const [row] = await env.services.db.select().from(sendingProviders).where(eq(sendingProviders.orgId, t.org.id));
    expect(row.secretEnc).toBeTruthy();
    expect(row.secretEnc).not.toContain(secret.slice(6, 20));
    expect(await env.services.secrets.decrypt(row.secretEnc!)).toBe(secret);
  });

  it('5xx: 502 "may have been delivered", outcome unknown, nothing marked sent, the cooldown kept', async () => {
    for (const status of [500, 503]) {
      const t = await newTenant(env);
      await useHttp(t, generateWebhookSecret());
      const key = await keyAt(t, 2);
      const { reply } = await t.reply();
      receiver.hits.length = 0;
      receiver.setStatus(status);
      const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'hello' } });
      expect(r.status).toBe(502);
      expect(r.json.error.code).toBe('provider_error');
      expect(r.json.error.message).toBe(
        `the sending provider did not confirm the message (HTTP ${status}: mail server on fire); it may have been delivered — check the organization's sending service before sending again`,
      );
      expect(await thread(t, reply.id)).toEqual(['reply']);
      expect((await eventsOf(env, t.org.id, reply.id)).map((e) => e.kind)).toEqual(['lead.replied']);
      expect((await trail(t, reply.id))[0]).toMatchObject({ action: 'send.provider_failed', detail: { provider: 'http', outcome: 'unknown', error: expect.stringContaining(`HTTP ${status}`) } });
      // The service may have sent it: sending to the same lead again within 15 minutes is refused before it is asked.
      receiver.setStatus(202);
      const again = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'hello' } });
      expect(again.status).toBe(429);
      expect(again.json.error.code).toBe('lead_recently_contacted');
      expect(receiver.hits).toHaveLength(1);
      expect(await thread(t, reply.id)).toEqual(['reply']);
    }
  });

  it('429 and 401: 502 "nothing was sent", outcome not_sent, no cooldown; a retry after recovery sends once', async () => {
    for (const status of [429, 401]) {
      const t = await newTenant(env);
      await useHttp(t, generateWebhookSecret());
      const key = await keyAt(t, 2);
      const { reply } = await t.reply();
      receiver.hits.length = 0;
      receiver.setStatus(status);
      const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'hello' } });
      expect(r.status).toBe(502);
      expect(r.json.error).toEqual({ code: 'provider_error', message: `the sending provider failed (HTTP ${status}: mail server on fire); nothing was sent` });
      expect(await thread(t, reply.id)).toEqual(['reply']);
      expect((await trail(t, reply.id))[0]).toMatchObject({ action: 'send.provider_failed', detail: { provider: 'http', outcome: 'not_sent' } });
      receiver.setStatus(202);
      // No cooldown was started, and the reply is not sent: the same lead can be answered right away.
      const retry = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'hello' } });
      expect(retry.status).toBe(200);
      expect(receiver.hits).toHaveLength(2);
      expect(await thread(t, reply.id)).toEqual(['reply', 'outbound']);
    }
  });

  it('a refused approval (422) keeps the draft in the queue; approving again after recovery sends it', async () => {
    const t = await newTenant(env);
    await useHttp(t);
    const { reply } = await t.reply();
    await t.call('POST', `/v1/replies/${reply.id}/send`, { body: { body: 'queued text' } });
    receiver.setStatus(422);
    const r = await t.call('POST', `/v1/replies/${reply.id}/approve`, { body: { approver: 'M' } });
    expect(r.status).toBe(502);
    expect((await t.call('GET', '/v1/replies?status=queued')).json.replies.map((x: any) => x.body)).toEqual(['queued text']);
    expect((await eventsOf(env, t.org.id, reply.id)).map((e) => e.kind)).toEqual(['lead.replied']);
    receiver.setStatus(200);
    expect((await t.call('POST', `/v1/replies/${reply.id}/approve`, { body: { approver: 'M' } })).status).toBe(200);
    expect(receiver.hits.map((h) => JSON.parse(h.body).body)).toEqual(['queued text', 'queued text']);
  });

  it('an approval that may have been delivered (503) keeps the draft, and the cooldown refuses approving it again', async () => {
    const t = await newTenant(env);
    await useHttp(t);
    const { reply } = await t.reply();
    await t.call('POST', `/v1/replies/${reply.id}/send`, { body: { body: 'queued text' } });
    receiver.setStatus(503);
    const r = await t.call('POST', `/v1/replies/${reply.id}/approve`, { body: { approver: 'M' } });
    expect(r.status).toBe(502);
    expect(r.json.error.message).toContain('it may have been delivered');
    expect((await t.call('GET', '/v1/replies?status=queued')).json.replies.map((x: any) => x.body)).toEqual(['queued text']);
    receiver.setStatus(200);
    const again = await t.call('POST', `/v1/replies/${reply.id}/approve`, { body: { approver: 'M' } });
    expect([again.status, again.json.error.code]).toEqual([429, 'lead_recently_contacted']);
    expect(receiver.hits).toHaveLength(1);
  });

  it('no answer within 10 s: 502 "may have been delivered", outcome unknown, not marked sent, the cooldown kept', async () => {
    const t = await newTenant(env);
    const slow = await startReceiver(200, 11_000);
    try {
      await useHttp(t, undefined, slow.url);
      const key = await keyAt(t, 2);
      const { reply } = await t.reply();
      const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'hello' } });
      expect(r.status).toBe(502);
      expect(r.json.error.message).toBe(
        "the sending provider did not confirm the message (timeout after 10000ms); it may have been delivered — check the organization's sending service before sending again",
      );
      expect(await thread(t, reply.id)).toEqual(['reply']);
      expect((await trail(t, reply.id))[0]).toMatchObject({ action: 'send.provider_failed', detail: { outcome: 'unknown' } });
      slow.setDelay(0);
      const again = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'hello' } });
      expect([again.status, again.json.error.code]).toEqual([429, 'lead_recently_contacted']);
      expect(slow.hits).toHaveLength(1);
    } finally {
      await slow.close();
    }
  }, 30_000);

  it('nothing listening: not_sent (the connection was never made), no cooldown', async () => {
    const t = await newTenant(env);
    const dead = await startReceiver();
    await dead.close();
    await useHttp(t, undefined, dead.url);
    const key = await keyAt(t, 2);
    const { reply } = await t.reply();
    const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'hello' } });
    expect(r.status).toBe(502);
    expect(r.json.error.code).toBe('provider_error');
    expect(r.json.error.message).toMatch(/ECONNREFUSED.*nothing was sent$/);
    expect((await trail(t, reply.id))[0]).toMatchObject({ action: 'send.provider_failed', detail: { outcome: 'not_sent' } });
    // No cooldown: the next try reaches the (still dead) service again instead of 429.
    expect((await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'hello' } })).status).toBe(502);
  });

  it('a connection dropped after the request was sent: unknown, the cooldown kept', async () => {
    const t = await newTenant(env);
    let requests = 0;
    // Reads the request, then resets the connection without an answer: the service may have sent the mail.
    const dropper = createTcpServer((socket) => socket.once('data', () => (requests++, socket.resetAndDestroy())));
    await new Promise<void>((resolve) => dropper.listen(0, '127.0.0.1', resolve));
    try {
      await useHttp(t, undefined, `http://127.0.0.1:${(dropper.address() as AddressInfo).port}/send`);
      const key = await keyAt(t, 2);
      const { reply } = await t.reply();
      const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'hello' } });
      expect(r.status).toBe(502);
      expect(r.json.error.message).toContain('it may have been delivered');
      expect((await trail(t, reply.id))[0]).toMatchObject({ action: 'send.provider_failed', detail: { outcome: 'unknown' } });
      expect((await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'hello' } })).status).toBe(429);
      expect(requests).toBe(1);
    } finally {
      await new Promise((resolve) => dropper.close(resolve));
    }
  });
});

describe('admin: sending provider and outbox', () => {
  it('switching back to outbox records the message instead of POSTing it', async () => {
    const t = await newTenant(env);
    await useHttp(t);
    const put = await t.admin('PUT', `/admin/v1/orgs/${t.org.id}/sending-provider`, { kind: 'outbox' });
    expect(put.json).toEqual({ provider: { kind: 'outbox' } });
    const { reply } = await t.reply({ from_email: 'ola@prospect.io' });
    const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { key: await keyAt(t, 2), body: { body: 'recorded' } });
    expect(receiver.hits).toEqual([]);
    const list = await t.admin('GET', `/admin/v1/orgs/${t.org.id}/outbox`);
    expect(list.status).toBe(200);
    expect(list.json).toEqual({ messages: [{ id: expect.any(String), reply_id: reply.id, to_email: 'ola@prospect.io', body: 'recorded', sent_at: r.json.sent_at }] });
  });

  it('refuses a bad configuration with 400 naming the field', async () => {
    const t = await newTenant(env);
    const bad: Array<[unknown, RegExp]> = [
      [{ kind: 'smtp' }, /kind/],
      [{ kind: 'http' }, /^url/],
      [{ kind: 'http', url: 'ftp://example.com/send' }, /^url: scheme/],
      [{ kind: 'http', url: 'https://user:pw@example.com/send' }, /^url: .*credentials/],
      [{ kind: 'http', url: receiver.url, secret: 'hunter2' }, /^secret/],
      [{ kind: 'outbox', url: receiver.url }, /unknown field/],
    ];
    for (const [body, message] of bad) {
      const r = await t.admin('PUT', `/admin/v1/orgs/${t.org.id}/sending-provider`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.code).toBe('validation_error');
      expect(r.json.error.message).toMatch(message);
    }
  });

  it('needs the admin token; an unknown organization is 404', async () => {
    const t = await newTenant(env);
    expect((await t.admin('PUT', `/admin/v1/orgs/${t.org.id}/sending-provider`, { kind: 'outbox' }, 'wrong')).status).toBe(401);
    expect((await t.admin('GET', `/admin/v1/orgs/${t.org.id}/outbox`, undefined, 'wrong')).status).toBe(401);
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await t.admin('PUT', `/admin/v1/orgs/${missing}/sending-provider`, { kind: 'outbox' })).status).toBe(404);
    expect((await t.admin('GET', `/admin/v1/orgs/${missing}/outbox`)).status).toBe(404);
  });
});
