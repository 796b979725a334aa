// The `instantly` sending provider against a local fake of Instantly's API v2 (test/infra/fake_instantly.ts): the
// admin configuration (key encrypted, never echoed), the reply call (endpoint, Bearer key, thread reference, subject),
// every failure path (always 502, nothing marked sent, the draft stays): a refusal (429, bad key, a reply Instantly
// cannot answer) is `not_sent` and gives the cooldown back; one after which Instantly may have sent it (5xx,
// timeout) is `unknown` and keeps the cooldown. Then a reply from the real Instantly inbound route, and the client.
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { campaigns, decisions, replies, sendingProviders } from '../../schema';
import { InstantlyClient, INSTANTLY_API_URL } from '../../lib/providers/instantly/client';
import { ProviderApiError, redact } from '../../lib/providers/request';
import { loadConfig } from '../../lib/config';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { recordSecret } from '../helpers/secret_scan';
import { newTenant, type Tenant } from '../helpers/tenant';
import { startFakeInstantly, type FakeInstantly } from '../infra/fake_instantly';
import { eventsOf, keyAt, outbox, trail } from './send_helpers';

// Shaped like an Instantly v2 key (base64); recorded so the run's log scan fails if it ever reaches a log.
const API_KEY = randomBytes(36).toString('base64');
const WRONG_KEY = randomBytes(36).toString('base64');
const EMAIL_ID = '0196a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

let env: TestEnv;
let fake: FakeInstantly;
beforeAll(async () => {
  recordSecret(inject('logDir'), API_KEY);
  recordSecret(inject('logDir'), WRONG_KEY);
  fake = await startFakeInstantly({ apiKey: API_KEY });
  env = await startTestEnv({ INSTANTLY_API_URL: fake.url });
});
afterEach(() => fake.reset());
afterAll(async () => {
  await fake.close();
  await env.close();
});

const useInstantly = (t: Tenant, api_key = API_KEY) => t.admin('PUT', `/admin/v1/orgs/${t.org.id}/sending-provider`, { kind: 'instantly', api_key });
const thread = async (t: Tenant, id: string) => (await t.call('GET', `/v1/replies/${id}`)).json.thread.map((m: any) => m.role);

/**
 * A reply as the Instantly inbound adapter stores it. Made with the admin ingestion (t.reply) and then given the
 * columns an Instantly webhook fills (provider_ref, to_email, subject), written directly with drizzle: that keeps
 * these tests about sending, independent of the inbound route (one test below goes through that route).
 */
async function instantlyReply(t: Tenant, ref: Record<string, string | null> | null = { reply_to_uuid: EMAIL_ID, eaccount: 'sam@agency-mail.com' }, subject: string | null = 'Quick question about pricing') {
  const { reply } = await t.reply({ from_email: 'ana@prospect.io', subject, body: 'Yes, send me the pricing please.' });
  await env.services.db.update(replies).set({ providerRef: ref, toEmail: 'sam@agency-mail.com', subject }).where(eq(replies.id, reply.id));
  return reply;
}

describe('admin: PUT sending-provider { kind: "instantly" }', () => {
  it('stores the key encrypted, answers a hint of it, and keeps only the hint in the Decision Trail', async () => {
    const t = await newTenant(env);
    const put = await useInstantly(t);
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ provider: { kind: 'instantly', api_key_hint: `…${API_KEY.slice(-4)}` } });
    expect(put.text).not.toContain(API_KEY);
    const [row] = await env.services.db.select().from(sendingProviders).where(eq(sendingProviders.orgId, t.org.id));
    expect(row).toMatchObject({ kind: 'instantly', url: null });
    expect(row.secretEnc).not.toContain(API_KEY);
    expect(row.secretEnc).not.toContain(API_KEY.slice(0, 16));
    expect(await env.services.secrets.decrypt(row.secretEnc!)).toBe(API_KEY);
    const [d] = await env.services.db
      .select()
      .from(decisions)
      .where(and(eq(decisions.orgId, t.org.id), eq(decisions.action, 'sending_provider.configured')));
    expect(d.detail).toEqual({ from: { kind: 'outbox' }, to: { kind: 'instantly', api_key_hint: `…${API_KEY.slice(-4)}` } });
    expect(JSON.stringify(d.detail)).not.toContain(API_KEY);
  });

  it('refuses a missing, malformed or extra field with 400 naming it, and never echoes the key', async () => {
    const t = await newTenant(env);
    const bad: Array<[unknown, RegExp]> = [
      [{ kind: 'instantly' }, /^api_key/],
      [{ kind: 'instantly', api_key: null }, /^api_key/],
      [{ kind: 'instantly', api_key: 'short' }, /^api_key: must be the instantly API key/],
      [{ kind: 'instantly', api_key: `${API_KEY} ` }, /^api_key: must be the instantly API key/],
      [{ kind: 'instantly', api_key: API_KEY, url: 'https://api.instantly.ai' }, /unknown field/],
      [{ kind: 'instantly', secret: API_KEY }, /api_key|unknown field/],
    ];
    for (const [body, message] of bad) {
      const r = await t.admin('PUT', `/admin/v1/orgs/${t.org.id}/sending-provider`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.code).toBe('validation_error');
      expect(r.json.error.message).toMatch(message);
      expect(r.text).not.toContain(API_KEY);
    }
    const [row] = await env.services.db.select().from(sendingProviders).where(eq(sendingProviders.orgId, t.org.id));
    expect(row).toBeUndefined();
  });

  it('the production default is the real host; INSTANTLY_API_URL only points elsewhere when set', () => {
    expect(loadConfig({}).INSTANTLY_API_URL).toBe(INSTANTLY_API_URL);
    expect(INSTANTLY_API_URL).toBe('https://api.instantly.ai');
    expect(() => loadConfig({ INSTANTLY_API_URL: 'ftp://x' })).toThrow(/INSTANTLY_API_URL/);
  });
});

describe('sending through Instantly', () => {
  it('POSTs /api/v2/emails/reply with the Bearer key, the email id, the sending account and "Re: …"; the reply is sent', async () => {
    const t = await newTenant(env);
    await useInstantly(t);
    const reply = await instantlyReply(t);
    const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { key: await keyAt(t, 2), body: { body: 'Hi Ana,\n\nPricing attached.\nBest, Sam' } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: 'sent', sent: true, to_email: 'ana@prospect.io' });
    expect(fake.requests).toHaveLength(1);
    const hit = fake.requests[0];
    expect(hit.method).toBe('POST');
    expect(hit.path).toBe('/api/v2/emails/reply');
    expect(hit.query).toEqual({});
    expect(hit.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(hit.headers['content-type']).toBe('application/json');
    expect(hit.json).toEqual({
      eaccount: 'sam@agency-mail.com',
      reply_to_uuid: EMAIL_ID,
      subject: 'Re: Quick question about pricing',
      body: { text: 'Hi Ana,\n\nPricing attached.\nBest, Sam', html: '<p>Hi Ana,</p><p>Pricing attached.<br>Best, Sam</p>' },
    });
    expect(await thread(t, reply.id)).toEqual(['reply', 'outbound']);
    expect(await outbox(t)).toEqual([]);
    const sent = (await trail(t, reply.id)).find((d) => d.action === 'reply.sent')!;
    expect(sent.detail).toMatchObject({ provider: 'instantly', to_email: 'ana@prospect.io' });
    expect((await eventsOf(env, t.org.id, reply.id)).map((e) => e.kind)).toEqual(['lead.replied', 'reply.sent']);
  });

  it('keeps a subject that already says "Re:", answers from to_email when the ref names no account, and escapes HTML', async () => {
    const t = await newTenant(env);
    await useInstantly(t);
    const reply = await instantlyReply(t, { email_id: EMAIL_ID }, 'RE: Intro');
    expect((await t.call('POST', `/v1/replies/${reply.id}/send`, { key: await keyAt(t, 2), body: { body: 'a < b & "c"' } })).status).toBe(200);
    expect(fake.requests[0].json).toMatchObject({ eaccount: 'sam@agency-mail.com', reply_to_uuid: EMAIL_ID, subject: 'RE: Intro', body: { html: '<p>a &lt; b &amp; &quot;c&quot;</p>' } });
  });

  it('a reply that did not come through Instantly: 502 naming the problem, no call, nothing sent', async () => {
    const t = await newTenant(env);
    await useInstantly(t);
    const { reply } = await t.reply(); // admin ingestion: no provider_ref
    const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { key: await keyAt(t, 2), body: { body: 'hello' } });
    expect(r.status).toBe(502);
    expect(r.json.error.code).toBe('provider_error');
    expect(r.json.error.message).toContain('Instantly cannot answer in-thread: the reply carries no Instantly email id (it did not arrive through an Instantly inbound source)');
    expect(fake.requests).toEqual([]);
    expect(await thread(t, reply.id)).toEqual(['reply']);
    expect((await trail(t, reply.id)).at(-1)).toMatchObject({ action: 'send.provider_failed', detail: { provider: 'instantly', outcome: 'not_sent' } });
  });

  it('429: 502 provider_error saying rate-limited and the Retry-After; nothing sent, no cooldown; a retry sends once', async () => {
    const t = await newTenant(env);
    await useInstantly(t);
    const key = await keyAt(t, 2);
    const reply = await instantlyReply(t);
    fake.setFailure({ status: 429, retryAfterSec: 7 });
    const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'hello' } });
    expect(r.status).toBe(502);
    expect(r.json.error.code).toBe('provider_error');
    expect(r.json.error.message).toMatch(/Instantly API rate-limited the request \(HTTP 429, retry after 7 s\)/);
    expect(r.json.error.message).toMatch(/nothing was sent$/);
    expect(await thread(t, reply.id)).toEqual(['reply']);
    expect((await eventsOf(env, t.org.id, reply.id)).map((e) => e.kind)).toEqual(['lead.replied']);
    expect((await trail(t, reply.id)).at(-1)).toMatchObject({ action: 'send.provider_failed', detail: { provider: 'instantly', outcome: 'not_sent', error: expect.stringContaining('rate-limited') } });
    expect(fake.requests).toHaveLength(1); // one attempt: never retried inside the send

    fake.setFailure(null);
    // No cooldown was started: the same lead can be answered right away, and it is sent exactly once.
    const retry = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'hello' } });
    expect(retry.status).toBe(200);
    expect(fake.requests).toHaveLength(2);
    expect(await thread(t, reply.id)).toEqual(['reply', 'outbound']);
    expect((await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'hello' } })).status).toBe(409);
    expect(fake.requests).toHaveLength(2);
  });

  it('500 and 503: 502 "may have been delivered", outcome unknown; the draft stays and the cooldown is kept', async () => {
    for (const status of [500, 503] as const) {
      const t = await newTenant(env);
      await useInstantly(t);
      const reply = await instantlyReply(t);
      await t.call('POST', `/v1/replies/${reply.id}/send`, { body: { body: 'queued text' } }); // the owner key queues it
      fake.reset();
      fake.setFailure({ status });
      const r = await t.call('POST', `/v1/replies/${reply.id}/approve`, { body: { approver: 'M' } });
      expect(r.status).toBe(502);
      expect(r.json.error.code).toBe('provider_error');
      expect(r.json.error.message).toBe(
        `the sending provider did not confirm the message (Instantly API answered HTTP ${status}: {"statusCode":${status},"error":"Internal Server Error","message":"Something went wrong"}); it may have been delivered — check Instantly before sending again`,
      );
      expect((await trail(t, reply.id)).at(-1)).toMatchObject({ action: 'send.provider_failed', detail: { provider: 'instantly', outcome: 'unknown', error: expect.stringContaining(`HTTP ${status}`) } });
      expect((await t.call('GET', '/v1/replies?status=queued')).json.replies.map((x: any) => x.body)).toEqual(['queued text']);
      expect((await eventsOf(env, t.org.id, reply.id)).map((e) => e.kind)).toEqual(['lead.replied']);
      expect(await thread(t, reply.id)).toEqual(['reply']);

      // Instantly may have sent it: the lead's cooldown stands, so approving again (even after recovery) is refused
      // and Instantly is not asked again.
      fake.setFailure(null);
      const again = await t.call('POST', `/v1/replies/${reply.id}/approve`, { body: { approver: 'M' } });
      expect(again.status).toBe(429);
      expect(again.json.error.code).toBe('lead_recently_contacted');
      expect(fake.replies()).toHaveLength(1);
      expect((await t.call('GET', '/v1/replies?status=queued')).json.replies.map((x: any) => x.body)).toEqual(['queued text']);
    }
  });

  it('a wrong key: 502 saying the key was refused, without the key; not_sent, so no cooldown', async () => {
    const t = await newTenant(env);
    await useInstantly(t, WRONG_KEY);
    const key = await keyAt(t, 2);
    const reply = await instantlyReply(t);
    const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'hello' } });
    expect(r.status).toBe(502);
    expect(r.json.error.message).toContain('Instantly API refused the API key (HTTP 401)');
    expect(r.json.error.message).toMatch(/nothing was sent$/);
    expect(r.text).not.toContain(WRONG_KEY);
    expect(fake.requests[0].headers.authorization).toBe(`Bearer ${WRONG_KEY}`);
    expect(await thread(t, reply.id)).toEqual(['reply']);
    expect((await trail(t, reply.id)).at(-1)).toMatchObject({ action: 'send.provider_failed', detail: { outcome: 'not_sent' } });
    // The cooldown was given back: sending again reaches Instantly again (and fails again on the key), not 429.
    const again = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'hello' } });
    expect(again.status).toBe(502);
    expect(fake.requests).toHaveLength(2);
  });

  it('no answer within the 10 s limit: 502 "may have been delivered", outcome unknown, not sent, the cooldown kept', async () => {
    const t = await newTenant(env);
    await useInstantly(t);
    const key = await keyAt(t, 2);
    const reply = await instantlyReply(t);
    fake.setFailure({ slowMs: 11_000 });
    const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'hello' } });
    expect(r.status).toBe(502);
    expect(r.json.error.code).toBe('provider_error');
    expect(r.json.error.message).toBe(
      'the sending provider did not confirm the message (Instantly API did not answer: timeout after 10000 ms); it may have been delivered — check Instantly before sending again',
    );
    expect(await thread(t, reply.id)).toEqual(['reply']);
    expect((await trail(t, reply.id)).at(-1)).toMatchObject({ action: 'send.provider_failed', detail: { provider: 'instantly', outcome: 'unknown' } });
    // The same lead within 15 minutes: refused by the cooldown before Instantly is asked.
    fake.setFailure(null);
    const again = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'hello' } });
    expect(again.status).toBe(429);
    expect(again.json.error.code).toBe('lead_recently_contacted');
    expect(fake.requests).toHaveLength(1);
  }, 30_000);
});

describe('a reply that came through the Instantly inbound route', () => {
  it('is answered in its thread with the email id and account from the webhook', async () => {
    const t = await newTenant(env);
    await env.services.db.update(campaigns).set({ providerCampaignId: '0196a1b2-0000-7000-8000-00000000c0de' }).where(eq(campaigns.id, t.campaign.id));
    const source = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/inbound-sources`, { provider: 'instantly', name: 'Instantly' });
    expect(source.status).toBe(201);
    const webhook = {
      timestamp: '2026-03-02T10:15:00.000Z',
      event_type: 'reply_received',
      workspace: '0196a1b2-0000-7000-8000-000000000001',
      campaign_id: '0196a1b2-0000-7000-8000-00000000c0de',
      campaign_name: 'Campaign A',
      lead_email: 'lee@prospect.io',
      email_account: 'sam@agency-mail.com',
      email_id: EMAIL_ID,
      reply_subject: 'Re: Your pipeline',
      reply_text: 'Interested. What does it cost?',
      reply_html: '<div>Interested. What does it cost?</div>',
    };
    const inbound = await t.call('POST', `/v1/inbound/${source.json.source.id}`, { key: null, body: webhook, headers: { 'x-inbound-secret': source.json.secret } });
    expect(inbound.status).toBe(200);
    const replyId = inbound.json.reply_id as string;
    await useInstantly(t);
    const r = await t.call('POST', `/v1/replies/${replyId}/send`, { key: await keyAt(t, 2), body: { body: 'It is 49 EUR a month.' } });
    expect(r.status).toBe(200);
    expect(fake.replies().map((h) => h.json)).toEqual([
      { eaccount: 'sam@agency-mail.com', reply_to_uuid: EMAIL_ID, subject: 'Re: Your pipeline', body: { text: 'It is 49 EUR a month.', html: '<p>It is 49 EUR a month.</p>' } },
    ]);
  });
});

describe('InstantlyClient', () => {
  const client = () => new InstantlyClient({ apiKey: API_KEY, baseUrl: fake.url });

  it('replyToEmail answers the documented Email object', async () => {
    const email = await client().replyToEmail({ eaccount: 'sam@agency-mail.com', reply_to_uuid: EMAIL_ID, subject: 'Re: x', body: { text: 'hi' } });
    expect(email).toMatchObject({ id: expect.any(String), eaccount: 'sam@agency-mail.com', subject: 'Re: x', message_id: expect.stringMatching(/^<.+>$/) });
  });

  it('addLeadsToCampaign POSTs /api/v2/leads/add and returns the import summary', async () => {
    const campaign_id = '0196a1b2-0000-7000-8000-00000000c0de';
    const first = await client().addLeadsToCampaign({
      campaign_id,
      skip_if_in_workspace: true,
      leads: [{ email: 'a@x.io', first_name: 'A', custom_variables: { tier: 'gold', score: 3 } }, { email: 'b@x.io' }, { email: 'not-an-email' }],
    });
    expect(first).toMatchObject({ status: 'success', total_sent: 3, leads_uploaded: 2, invalid_email_count: 1, created_leads: [{ email: 'a@x.io', index: 0 }, { email: 'b@x.io', index: 1 }] });
    const hit = fake.requests[0];
    expect(hit.path).toBe('/api/v2/leads/add');
    expect(hit.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(hit.json).toMatchObject({ campaign_id, skip_if_in_workspace: true, leads: [{ email: 'a@x.io', first_name: 'A', custom_variables: { tier: 'gold', score: 3 } }, { email: 'b@x.io' }, { email: 'not-an-email' }] });
    const again = await client().addLeadsToCampaign({ campaign_id, leads: [{ email: 'a@x.io' }] });
    expect(again).toMatchObject({ leads_uploaded: 0, skipped_count: 1 });
    expect(() => client().addLeadsToCampaign({ campaign_id, leads: [] })).toThrow(RangeError);
  });

  it('errors are typed (status, retry-after, snippet) and never carry the key', async () => {
    fake.setFailure({ status: 429, retryAfterSec: 30 });
    const err = (await client().addLeadsToCampaign({ campaign_id: '0196a1b2-0000-7000-8000-00000000c0de', leads: [{ email: 'a@x.io' }] }).catch((e) => e)) as ProviderApiError;
    expect(err).toBeInstanceOf(ProviderApiError);
    expect(err).toMatchObject({ failure: 'rate_limited', status: 429, retryAfterSec: 30, bodySnippet: expect.stringContaining('Rate limit') });
    fake.setFailure(null);
    const unauthorized = (await new InstantlyClient({ apiKey: WRONG_KEY, baseUrl: fake.url }).replyToEmail({ eaccount: 'a@b.io', reply_to_uuid: EMAIL_ID, subject: 's', body: { text: 't' } }).catch((e) => e)) as ProviderApiError;
    expect(unauthorized).toMatchObject({ failure: 'unauthorized', status: 401 });
    expect(`${unauthorized.message} ${unauthorized.bodySnippet} ${unauthorized.stack}`).not.toContain(WRONG_KEY);
  });

  it('gives up at its timeout and never follows a redirect', async () => {
    fake.setFailure({ slowMs: 2_000 });
    const slow = (await new InstantlyClient({ apiKey: API_KEY, baseUrl: fake.url, timeoutMs: 200 }).replyToEmail({ eaccount: 'a@b.io', reply_to_uuid: EMAIL_ID, subject: 's', body: { text: 't' } }).catch((e) => e)) as ProviderApiError;
    expect(slow).toMatchObject({ failure: 'timeout', status: null, message: 'Instantly API did not answer: timeout after 200 ms' });
    fake.setFailure({ redirectTo: 'http://169.254.169.254/latest/meta-data' });
    const moved = (await client().replyToEmail({ eaccount: 'a@b.io', reply_to_uuid: EMAIL_ID, subject: 's', body: { text: 't' } }).catch((e) => e)) as ProviderApiError;
    expect(moved).toMatchObject({ failure: 'redirect', status: 302 });
    expect(fake.requests).toHaveLength(2); // the redirect target was never asked
  });

  it('says whether Instantly may have acted: refusals and a connection never made no; 5xx, timeout, a dropped connection, a redirect yes', async () => {
    const call = (c = client()) => c.replyToEmail({ eaccount: 'a@b.io', reply_to_uuid: EMAIL_ID, subject: 's', body: { text: 't' } }).catch((e) => e as ProviderApiError);
    const cases: Array<[Parameters<typeof fake.setFailure>[0], Partial<ProviderApiError>]> = [
      [{ status: 429 }, { failure: 'rate_limited', mayHaveActed: false }],
      [{ status: 500 }, { failure: 'http', status: 500, mayHaveActed: true }],
      [{ status: 503 }, { failure: 'http', status: 503, mayHaveActed: true }],
      [{ redirectTo: 'http://127.0.0.1:9/x' }, { failure: 'redirect', mayHaveActed: true }],
      [{ dropConnection: true }, { failure: 'network', status: null, mayHaveActed: true }],
    ];
    for (const [failure, expected] of cases) {
      fake.setFailure(failure);
      expect(await call(), JSON.stringify(failure)).toMatchObject(expected);
    }
    fake.setFailure({ slowMs: 2_000 });
    expect(await call(new InstantlyClient({ apiKey: API_KEY, baseUrl: fake.url, timeoutMs: 200 }))).toMatchObject({ failure: 'timeout', mayHaveActed: true });
    fake.setFailure(null);
    expect(await call(new InstantlyClient({ apiKey: WRONG_KEY, baseUrl: fake.url }))).toMatchObject({ failure: 'unauthorized', mayHaveActed: false });
    const notFound = await new InstantlyClient({ apiKey: API_KEY, baseUrl: `${fake.url}/nowhere` }).replyToEmail({ eaccount: 'a@b.io', reply_to_uuid: EMAIL_ID, subject: 's', body: { text: 't' } }).catch((e) => e);
    expect(notFound).toMatchObject({ failure: 'http', status: 404, mayHaveActed: false });

    // Nothing listening: the connection was never made.
    const closed = await startFakeInstantly({ apiKey: API_KEY });
    await closed.close();
    const refused = await call(new InstantlyClient({ apiKey: API_KEY, baseUrl: closed.url }));
    expect(refused).toMatchObject({ failure: 'unreachable', status: null, mayHaveActed: false, message: expect.stringContaining('ECONNREFUSED') });
  });

  it('redacts the key in every spelling a query string can give it', () => {
    const key = "k3y!'()~*_ a/b+c";
    const asQuery = new URLSearchParams({ api_key: key }).toString().slice('api_key='.length);
    const asComponent = encodeURIComponent(key);
    expect(asQuery).not.toBe(asComponent);
    const text = `raw ${key} query ${asQuery} component ${asComponent}`;
    expect(redact(text, key)).toBe('raw [redacted] query [redacted] component [redacted]');
  });
});
