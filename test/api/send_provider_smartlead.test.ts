// The `smartlead` sending provider against a local fake of Smartlead's API v1 (test/infra/fake_smartlead.ts): the
// admin configuration, the reply call (campaign path, api_key query, email_stats_id and the thread fields), every
// failure path (always 502, nothing marked sent, the draft stays): a refusal (429, bad key, a reply Smartlead cannot
// answer, a campaign id that is not one) is `not_sent` and gives the cooldown back; one after which Smartlead may
// have sent it (5xx, timeout) is `unknown` and keeps the cooldown. Then the inbound route, and the client itself.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { campaigns, replies, sendingProviders } from '../../schema';
import { loadConfig } from '../../lib/config';
import { ProviderApiError } from '../../lib/providers/request';
import { SmartleadClient, SMARTLEAD_API_URL } from '../../lib/providers/smartlead/client';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { recordSecret } from '../helpers/secret_scan';
import { newTenant, type Tenant } from '../helpers/tenant';
import { startFakeSmartlead, type FakeSmartlead } from '../infra/fake_smartlead';
import { eventsOf, keyAt, outbox, trail } from './send_helpers';

// Shaped like a Smartlead key (uuid_suffix); recorded so the run's log scan fails if it ever reaches a log.
const API_KEY = `${randomUUID()}_${randomBytes(4).toString('hex')}`;
const WRONG_KEY = `${randomUUID()}_${randomBytes(4).toString('hex')}`;
const STATS_ID = 'a1b2c3d4-e5f6-4789-abcd-ef0123456789';
const PROSPECT_MESSAGE_ID = '<CAF=abc123@mail.gmail.com>';

let env: TestEnv;
let fake: FakeSmartlead;
beforeAll(async () => {
  recordSecret(inject('logDir'), API_KEY);
  recordSecret(inject('logDir'), WRONG_KEY);
  fake = await startFakeSmartlead({ apiKey: API_KEY });
  env = await startTestEnv({ SMARTLEAD_API_URL: `${fake.url}/api/v1` });
});
afterEach(() => fake.reset());
afterAll(async () => {
  await fake.close();
  await env.close();
});

const useSmartlead = (t: Tenant, api_key = API_KEY) => t.admin('PUT', `/admin/v1/orgs/${t.org.id}/sending-provider`, { kind: 'smartlead', api_key });
const thread = async (t: Tenant, id: string) => (await t.call('GET', `/v1/replies/${id}`)).json.thread.map((m: any) => m.role);
const fullRef = { campaign_id: 1234567, email_stats_id: STATS_ID, reply_message_id: PROSPECT_MESSAGE_ID, reply_email_time: '2026-03-02T10:15:00.000Z' };

/**
 * A reply as the Smartlead inbound adapter stores it. Made with the admin ingestion (t.reply) and then given the
 * columns a Smartlead webhook fills (provider_ref, rfc_message_id, to_email, subject), written directly with
 * drizzle: that keeps these tests about sending (one test below goes through the inbound route itself).
 */
async function smartleadReply(t: Tenant, ref: Record<string, string | number | null> | null = fullRef) {
  const { reply } = await t.reply({ from_email: 'ana@prospect.io', subject: 'Partnership', body: 'Sounds good, tell me more.' });
  await env.services.db
    .update(replies)
    .set({ providerRef: ref, rfcMessageId: PROSPECT_MESSAGE_ID, inReplyTo: '<campaign-1@agency-mail.com>', toEmail: 'sam@agency-mail.com', subject: 'Partnership' })
    .where(eq(replies.id, reply.id));
  return reply;
}

describe('admin: PUT sending-provider { kind: "smartlead" }', () => {
  it('stores the key encrypted and answers only a hint of it', async () => {
    const t = await newTenant(env);
    const put = await useSmartlead(t);
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ provider: { kind: 'smartlead', api_key_hint: `…${API_KEY.slice(-4)}` } });
    expect(put.text).not.toContain(API_KEY);
    const [row] = await env.services.db.select().from(sendingProviders).where(eq(sendingProviders.orgId, t.org.id));
    expect(row.kind).toBe('smartlead');
    expect(row.secretEnc).not.toContain(API_KEY.slice(0, 16));
    expect(await env.services.secrets.decrypt(row.secretEnc!)).toBe(API_KEY);
    // Switching providers is recorded with hints only.
    const back = await t.admin('PUT', `/admin/v1/orgs/${t.org.id}/sending-provider`, { kind: 'outbox' });
    expect(back.json).toEqual({ provider: { kind: 'outbox' } });
    const configured = (await t.admin('GET', `/admin/v1/orgs/${t.org.id}/decisions`)).json.decisions.filter((d: any) => d.action === 'sending_provider.configured');
    expect(configured.map((d: any) => d.detail)).toContainEqual({ from: { kind: 'smartlead', api_key_hint: `…${API_KEY.slice(-4)}` }, to: { kind: 'outbox' } });
  });

  it('refuses a missing or malformed api_key with 400 naming it', async () => {
    const t = await newTenant(env);
    for (const [body, message] of [
      [{ kind: 'smartlead' }, /^api_key/],
      [{ kind: 'smartlead', api_key: 'has a space in it' }, /^api_key: must be the smartlead API key/],
      [{ kind: 'smartlead', api_key: 'x'.repeat(513) }, /^api_key/],
    ] as const) {
      const r = await t.admin('PUT', `/admin/v1/orgs/${t.org.id}/sending-provider`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.message).toMatch(message);
    }
  });

  it('the production default is the real host', () => {
    expect(loadConfig({}).SMARTLEAD_API_URL).toBe(SMARTLEAD_API_URL);
    expect(SMARTLEAD_API_URL).toBe('https://server.smartlead.ai/api/v1');
  });
});

describe('sending through Smartlead', () => {
  it('POSTs /campaigns/{id}/reply-email-thread?api_key=… with email_stats_id and the thread fields; the reply is sent', async () => {
    const t = await newTenant(env);
    await useSmartlead(t);
    const reply = await smartleadReply(t);
    const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { key: await keyAt(t, 2), body: { body: 'Hi Ana,\nhappy to. Call on Thursday?' } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: 'sent', sent: true });
    expect(fake.requests).toHaveLength(1);
    const hit = fake.requests[0];
    expect(hit.method).toBe('POST');
    expect(hit.path).toBe('/api/v1/campaigns/1234567/reply-email-thread');
    expect(hit.query).toEqual({ api_key: API_KEY });
    expect(hit.headers.authorization).toBeUndefined();
    expect(hit.headers['content-type']).toBe('application/json');
    expect(hit.json).toEqual({
      email_stats_id: STATS_ID,
      email_body: '<p>Hi Ana,<br>happy to. Call on Thursday?</p>',
      reply_message_id: PROSPECT_MESSAGE_ID,
      reply_email_time: '2026-03-02T10:15:00.000Z',
      reply_email_body: 'Sounds good, tell me more.',
      to_email: 'ana@prospect.io',
    });
    expect(await thread(t, reply.id)).toEqual(['reply', 'outbound']);
    expect(await outbox(t)).toEqual([]);
    expect((await trail(t, reply.id)).find((d) => d.action === 'reply.sent')!.detail).toMatchObject({ provider: 'smartlead' });
  });

  it('falls back to the campaign provider id, the stored Message-ID and the received time when the ref lacks them', async () => {
    const t = await newTenant(env);
    await env.services.db.update(campaigns).set({ provider: 'smartlead', providerCampaignId: '998877' }).where(eq(campaigns.id, t.campaign.id));
    await useSmartlead(t);
    const reply = await smartleadReply(t, { email_stats_id: STATS_ID });
    expect((await t.call('POST', `/v1/replies/${reply.id}/send`, { key: await keyAt(t, 2), body: { body: 'ok' } })).status).toBe(200);
    const hit = fake.requests[0];
    expect(hit.path).toBe('/api/v1/campaigns/998877/reply-email-thread');
    expect(hit.json).toMatchObject({ email_stats_id: STATS_ID, reply_message_id: PROSPECT_MESSAGE_ID, reply_email_time: reply.received_at });
  });

  it("never falls back to another tool's campaign id, even one that looks like a Smartlead id", async () => {
    const t = await newTenant(env);
    await env.services.db.update(campaigns).set({ provider: 'instantly', providerCampaignId: '998877' }).where(eq(campaigns.id, t.campaign.id));
    await useSmartlead(t);
    const key = await keyAt(t, 2);
    const reply = await smartleadReply(t, { email_stats_id: STATS_ID });
    const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'ok' } });
    expect(r.status).toBe(502);
    expect(r.json.error.message).toContain('neither the reply nor its campaign carries a Smartlead campaign id');
    expect(fake.requests).toEqual([]);
    expect((await trail(t, reply.id)).at(-1)).toMatchObject({ action: 'send.provider_failed', detail: { provider: 'smartlead', outcome: 'not_sent' } });
  });

  it('a campaign id that is not a whole number: 502 not_sent, no request is built, no cooldown', async () => {
    const t = await newTenant(env);
    await useSmartlead(t);
    // A key per send: each one counts against its key's 5 sends per minute, refused or not.
    const send = async (replyId: string) => t.call('POST', `/v1/replies/${replyId}/send`, { key: await keyAt(t, 2), body: { body: 'ok' } });
    await env.services.db.update(campaigns).set({ provider: 'smartlead', providerCampaignId: '../../leads' }).where(eq(campaigns.id, t.campaign.id));
    for (const campaign_id of ['../../leads', '12/../34', '12%2F..', '1.5', '-3', ' 42x', 1.5]) {
      const reply = await smartleadReply(t, { ...fullRef, campaign_id });
      const r = await send(reply.id);
      expect(r.status, String(campaign_id)).toBe(502);
      expect(r.json.error.code).toBe('provider_error');
      expect(r.json.error.message).toBe(
        'the sending provider failed (Smartlead cannot answer in-thread: the campaign id it carries is not a Smartlead campaign id (a whole number)); nothing was sent',
      );
      expect((await trail(t, reply.id)).at(-1)).toMatchObject({ action: 'send.provider_failed', detail: { outcome: 'not_sent' } });
    }
    // The campaign's own id is checked the same way when the ref has none.
    const fallback = await smartleadReply(t, { email_stats_id: STATS_ID });
    expect((await send(fallback.id)).status).toBe(502);
    expect(fake.requests).toEqual([]);
    // Not a contact: the lead (one prospect, one campaign) can be answered at once.
    const good = await smartleadReply(t);
    expect((await send(good.id)).status).toBe(200);
    expect(fake.requests.map((h) => h.path)).toEqual(['/api/v1/campaigns/1234567/reply-email-thread']);
  });

  it('a reply without email_stats_id (not from Smartlead): 502 naming the problem, no call, nothing sent', async () => {
    const t = await newTenant(env);
    await useSmartlead(t);
    const { reply } = await t.reply();
    const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { key: await keyAt(t, 2), body: { body: 'hello' } });
    expect(r.status).toBe(502);
    expect(r.json.error.code).toBe('provider_error');
    expect(r.json.error.message).toContain('Smartlead cannot answer in-thread: the reply carries no Smartlead email_stats_id (it did not arrive through a Smartlead inbound source)');
    const noCampaign = await smartleadReply(t, { email_stats_id: STATS_ID });
    const r2 = await t.call('POST', `/v1/replies/${noCampaign.id}/send`, { key: await keyAt(t, 2), body: { body: 'hello' } });
    expect(r2.status).toBe(502);
    expect(r2.json.error.message).toContain('neither the reply nor its campaign carries a Smartlead campaign id');
    expect(fake.requests).toEqual([]);
    expect(await thread(t, reply.id)).toEqual(['reply']);
  });

  it('429 (retry_after in the body): 502 saying rate-limited; nothing sent, no cooldown; a retry sends once', async () => {
    const t = await newTenant(env);
    await useSmartlead(t);
    const key = await keyAt(t, 2);
    const reply = await smartleadReply(t);
    fake.setFailure({ status: 429, retryAfterSec: 30, retryAfterInBody: true });
    const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'hello' } });
    expect(r.status).toBe(502);
    expect(r.json.error).toMatchObject({ code: 'provider_error', message: expect.stringContaining('Smartlead API rate-limited the request (HTTP 429, retry after 30 s)') });
    expect(r.text).not.toContain(API_KEY);
    expect(await thread(t, reply.id)).toEqual(['reply']);
    expect((await eventsOf(env, t.org.id, reply.id)).map((e) => e.kind)).toEqual(['lead.replied']);
    expect((await trail(t, reply.id)).at(-1)).toMatchObject({ action: 'send.provider_failed', detail: { provider: 'smartlead', outcome: 'not_sent' } });
    expect(r.json.error.message).toMatch(/nothing was sent$/);

    fake.setFailure(null);
    expect((await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'hello' } })).status).toBe(200);
    expect(fake.replies()).toHaveLength(2);
    expect((await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'hello' } })).status).toBe(409);
    expect(fake.replies()).toHaveLength(2);
  });

  it('500 and 503: 502 "may have been delivered", outcome unknown; the draft stays and the cooldown is kept', async () => {
    for (const status of [500, 503] as const) {
      const t = await newTenant(env);
      await useSmartlead(t);
      const reply = await smartleadReply(t);
      await t.call('POST', `/v1/replies/${reply.id}/send`, { body: { body: 'queued text' } });
      fake.reset();
      fake.setFailure({ status });
      const r = await t.call('POST', `/v1/replies/${reply.id}/approve`, { body: { approver: 'M' } });
      expect(r.status).toBe(502);
      expect(r.json.error.code).toBe('provider_error');
      expect(r.json.error.message).toBe(
        `the sending provider did not confirm the message (Smartlead API answered HTTP ${status}: {"error":"Internal server error"}); it may have been delivered — check Smartlead before sending again`,
      );
      expect(r.text).not.toContain(API_KEY);
      expect((await trail(t, reply.id)).at(-1)).toMatchObject({ action: 'send.provider_failed', detail: { provider: 'smartlead', outcome: 'unknown' } });
      expect((await t.call('GET', '/v1/replies?status=queued')).json.replies.map((x: any) => x.body)).toEqual(['queued text']);
      expect(await thread(t, reply.id)).toEqual(['reply']);

      // Smartlead may have sent it: the lead's cooldown stands, and Smartlead is not asked again.
      fake.setFailure(null);
      const again = await t.call('POST', `/v1/replies/${reply.id}/approve`, { body: { approver: 'M' } });
      expect(again.status).toBe(429);
      expect(again.json.error.code).toBe('lead_recently_contacted');
      expect(fake.replies()).toHaveLength(1);
    }
  });

  it('a wrong key: 502 saying the key was refused, without the key; not_sent, so no cooldown', async () => {
    const t = await newTenant(env);
    await useSmartlead(t, WRONG_KEY);
    const key = await keyAt(t, 2);
    const reply = await smartleadReply(t);
    const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'hello' } });
    expect(r.status).toBe(502);
    expect(r.json.error.message).toContain('Smartlead API refused the API key (HTTP 401)');
    expect(r.text).not.toContain(WRONG_KEY);
    expect((await trail(t, reply.id)).at(-1)).toMatchObject({ action: 'send.provider_failed', detail: { outcome: 'not_sent' } });
    expect((await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'hello' } })).status).toBe(502);
    expect(fake.requests).toHaveLength(2);
  });

  it('no answer within the 10 s limit: 502 "may have been delivered", outcome unknown, not sent, the cooldown kept', async () => {
    const t = await newTenant(env);
    await useSmartlead(t);
    const key = await keyAt(t, 2);
    const reply = await smartleadReply(t);
    fake.setFailure({ slowMs: 11_000 });
    const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'hello' } });
    expect(r.status).toBe(502);
    expect(r.json.error.message).toBe(
      'the sending provider did not confirm the message (Smartlead API did not answer: timeout after 10000 ms); it may have been delivered — check Smartlead before sending again',
    );
    expect(await thread(t, reply.id)).toEqual(['reply']);
    expect((await trail(t, reply.id)).at(-1)).toMatchObject({ action: 'send.provider_failed', detail: { provider: 'smartlead', outcome: 'unknown' } });
    fake.setFailure(null);
    const again = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'hello' } });
    expect(again.status).toBe(429);
    expect(again.json.error.code).toBe('lead_recently_contacted');
    expect(fake.requests).toHaveLength(1);
  }, 30_000);
});

describe('a reply that came through the Smartlead inbound route', () => {
  it('is answered with the stats id, campaign and message id from the webhook', async () => {
    const t = await newTenant(env);
    await env.services.db.update(campaigns).set({ providerCampaignId: '1234567' }).where(eq(campaigns.id, t.campaign.id));
    const source = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/inbound-sources`, { provider: 'smartlead', name: 'Smartlead' });
    expect(source.status).toBe(201);
    const webhook = {
      event_type: 'EMAIL_REPLY',
      campaign_id: 1234567,
      campaign_name: 'Campaign A',
      stats_id: STATS_ID,
      sl_lead_email: 'lee@prospect.io',
      from_email: 'sam@agency-mail.com',
      to_email: 'lee@prospect.io',
      to_name: 'Lee',
      subject: 'Re: Partnership',
      event_timestamp: '2026-03-02T10:15:00.000Z',
      sent_message: { message_id: '<campaign-1@agency-mail.com>', html: '<p>Hi Lee</p>', text: 'Hi Lee', time: '2026-03-01T09:00:00.000Z' },
      reply_message: { message_id: PROSPECT_MESSAGE_ID, html: '<div>Tell me more</div>', text: 'Tell me more', time: '2026-03-02T10:15:00.000Z' },
    };
    const inbound = await t.call('POST', `/v1/inbound/${source.json.source.id}`, { key: null, body: webhook, headers: { 'x-inbound-secret': source.json.secret } });
    expect(inbound.status).toBe(200);
    await useSmartlead(t);
    const r = await t.call('POST', `/v1/replies/${inbound.json.reply_id}/send`, { key: await keyAt(t, 2), body: { body: 'Sure.' } });
    expect(r.status).toBe(200);
    const [hit] = fake.replies();
    expect(hit.path).toBe('/api/v1/campaigns/1234567/reply-email-thread');
    expect(hit.json).toMatchObject({
      email_stats_id: STATS_ID,
      email_body: '<p>Sure.</p>',
      reply_message_id: PROSPECT_MESSAGE_ID,
      reply_email_time: '2026-03-02T10:15:00.000Z',
      reply_email_body: '<div>Tell me more</div>',
      to_email: 'lee@prospect.io',
    });
  });
});

describe('SmartleadClient', () => {
  const client = () => new SmartleadClient({ apiKey: API_KEY, baseUrl: `${fake.url}/api/v1` });

  it('replyToThread answers the documented success body', async () => {
    expect(await client().replyToThread(42, { email_stats_id: STATS_ID, email_body: '<p>hi</p>' })).toEqual({ success: true, message: 'Reply sent successfully' });
    expect(fake.requests[0]).toMatchObject({ path: '/api/v1/campaigns/42/reply-email-thread', query: { api_key: API_KEY } });
  });

  it('addLeadsToCampaign POSTs /campaigns/{id}/leads with lead_list and settings and returns the counts', async () => {
    const first = await client().addLeadsToCampaign(42, {
      lead_list: [{ email: 'a@x.io', first_name: 'A', custom_fields: { tier: 'gold' } }, { email: 'b@x.io' }],
      settings: { ignore_global_block_list: false, ignore_duplicate_leads_in_other_campaign: false },
    });
    expect(first).toMatchObject({ ok: true, upload_count: 2, total_leads: 2, already_added_to_campaign: 0 });
    expect(fake.requests[0]).toMatchObject({ path: '/api/v1/campaigns/42/leads', query: { api_key: API_KEY } });
    expect(fake.requests[0].json).toEqual({
      lead_list: [{ email: 'a@x.io', first_name: 'A', custom_fields: { tier: 'gold' } }, { email: 'b@x.io' }],
      settings: { ignore_global_block_list: false, ignore_duplicate_leads_in_other_campaign: false },
    });
    expect(await client().addLeadsToCampaign(42, { lead_list: [{ email: 'a@x.io' }] })).toMatchObject({ total_leads: 0, already_added_to_campaign: 1 });
    await expect(client().addLeadsToCampaign(42, { lead_list: Array.from({ length: 101 }, (_, i) => ({ email: `l${i}@x.io` })) })).rejects.toThrow(RangeError);
  });

  it('a 2xx that says ok: false is a refusal; errors are typed and never carry the key, even when the answer echoes the URL', async () => {
    // A server that answers 500 with the URL it was asked (query string, so the api_key) and then a 200 "ok: false".
    let mode: 'echo' | 'refuse' = 'echo';
    const echo = createServer((req, res) => {
      if (mode === 'echo') res.writeHead(500, { 'content-type': 'text/plain' }).end(`cannot handle ${req.url} for key ${API_KEY}`);
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: false, error: `campaign not found (api_key=${API_KEY})` }));
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    try {
      const c = new SmartleadClient({ apiKey: API_KEY, baseUrl: `http://127.0.0.1:${(echo.address() as AddressInfo).port}/api/v1` });
      const failed = (await c.replyToThread(1, { email_stats_id: 's', email_body: 'b' }).catch((e) => e)) as ProviderApiError;
      expect(failed).toMatchObject({ failure: 'http', status: 500 });
      expect(failed.message).toContain('[redacted]');
      expect(`${failed.message} ${failed.bodySnippet} ${failed.stack}`).not.toContain(API_KEY);
      mode = 'refuse';
      const refused = (await c.replyToThread(1, { email_stats_id: 's', email_body: 'b' }).catch((e) => e)) as ProviderApiError;
      expect(refused).toMatchObject({ failure: 'rejected', status: 200, message: expect.stringContaining('campaign not found') });
      expect(refused.message).not.toContain(API_KEY);
    } finally {
      echo.closeAllConnections();
      await new Promise((resolve) => echo.close(resolve));
    }
  });

  it('gives up at its timeout, does not follow redirects, and reports a 429 with Retry-After', async () => {
    fake.setFailure({ slowMs: 2_000 });
    const slow = (await new SmartleadClient({ apiKey: API_KEY, baseUrl: `${fake.url}/api/v1`, timeoutMs: 200 }).replyToThread(1, { email_stats_id: 's', email_body: 'b' }).catch((e) => e)) as ProviderApiError;
    expect(slow).toMatchObject({ failure: 'timeout', status: null });
    fake.setFailure({ redirectTo: 'http://127.0.0.1:9/elsewhere' });
    expect(await client().replyToThread(1, { email_stats_id: 's', email_body: 'b' }).catch((e) => e)).toMatchObject({ failure: 'redirect', status: 302 });
    fake.setFailure({ status: 429, retryAfterSec: 12 });
    expect(await client().replyToThread(1, { email_stats_id: 's', email_body: 'b' }).catch((e) => e)).toMatchObject({ failure: 'rate_limited', status: 429, retryAfterSec: 12, mayHaveActed: false });
    fake.setFailure({ status: 500 });
    expect(await client().replyToThread(1, { email_stats_id: 's', email_body: 'b' }).catch((e) => e)).toMatchObject({ failure: 'http', status: 500, mayHaveActed: true });
  });

  it('refuses a campaign id that is not a whole number before building a request', async () => {
    for (const id of ['..', '../leads', '1/../2', '1?x=1', '1#', '', '1.0', -1, 1.5]) {
      await expect(client().replyToThread(id, { email_stats_id: 's', email_body: 'b' }), String(id)).rejects.toThrow(RangeError);
      await expect(client().addLeadsToCampaign(id, { lead_list: [{ email: 'a@x.io' }] }), String(id)).rejects.toThrow(RangeError);
    }
    expect(fake.requests).toEqual([]);
  });

  it("redacts the key's query-string spelling from an echoed error, where encodeURIComponent's differs", async () => {
    // A key with characters URLSearchParams escapes and encodeURIComponent does not; the client sends the former.
    const key = `${randomUUID()}!'()~`;
    recordSecret(inject('logDir'), key);
    const asQuery = new URLSearchParams({ api_key: key }).toString().slice('api_key='.length);
    expect(asQuery).not.toBe(encodeURIComponent(key));
    const echo = createServer((req, res) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`cannot handle ${req.url}`));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    try {
      const c = new SmartleadClient({ apiKey: key, baseUrl: `http://127.0.0.1:${(echo.address() as AddressInfo).port}/api/v1` });
      const failed = (await c.replyToThread(1, { email_stats_id: 's', email_body: 'b' }).catch((e) => e)) as ProviderApiError;
      expect(failed).toMatchObject({ failure: 'http', status: 500 });
      expect(failed.bodySnippet).toBe('cannot handle /api/v1/campaigns/1/reply-email-thread?api_key=[redacted]');
      for (const spelling of [key, asQuery, encodeURIComponent(key)]) expect(`${failed.message} ${failed.bodySnippet}`).not.toContain(spelling);
    } finally {
      echo.closeAllConnections();
      await new Promise((resolve) => echo.close(resolve));
    }
  });
});
