import { createRoute, z } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '../../schema';
import { eq } from 'drizzle-orm';
import { newGroup } from '../../lib/http/env';
import { createPlatform } from '../../lib/http/platform';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant, randomIp } from '../helpers/tenant';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

describe('error envelope', () => {
  it('answers unknown routes, malformed JSON and oversized bodies with the envelope', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    const unknown = await t.call('GET', '/v1/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('not_found');

    const malformed = await t.call('PATCH', `/v1/leads/${reply.id}`, { raw: '{"classification": "hot"', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.json.error).toEqual({ code: 'validation_error', message: 'body: malformed JSON' });

    const big = JSON.stringify({ notes: 'x'.repeat(51 * 1024) });
    const tooLarge = await t.call('PATCH', `/v1/leads/${reply.id}`, { raw: big, headers: { 'content-type': 'application/json' } });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.json.error.code).toBe('payload_too_large');

    // No Content-Length: the limit is enforced on the streamed bytes.
    const stream = new ReadableStream({
      start(ctrl) {
        for (let i = 0; i < 60; i++) ctrl.enqueue(new TextEncoder().encode('x'.repeat(1024)));
        ctrl.close();
      },
    });
    const res = await env.app.request(`/v1/leads/${reply.id}`, {
      method: 'PATCH',
      headers: { 'x-service-key': t.key, 'content-type': 'application/json', 'x-forwarded-for': t.ip },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.headers.get('content-length')).not.toBe('0');
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe('payload_too_large');
  });

  it('refuses NUL characters, which Postgres text cannot hold, with a 400 instead of failing the write', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    const body = await t.call('PATCH', `/v1/leads/${reply.id}`, { body: { notes: 'a\u0000b' } });
    expect(body.status).toBe(400);
    expect(body.json.error.message).toContain('NUL');
    const escaped = await t.call('PATCH', `/v1/leads/${reply.id}`, { body: { notes: 'literal \\u0000 text is fine' } });
    expect(escaped.status).toBe(200);
    const query = await t.call('GET', '/v1/leads?since=2026%00');
    expect(query.status).toBe(400);
  });

  it('refuses a body that is not JSON', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    const r = await t.call('PATCH', `/v1/leads/${reply.id}`, { raw: 'classification=hot', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(r.status).toBe(415);
    expect(r.json.error).toEqual({ code: 'unsupported_media_type', message: 'body: Content-Type must be application/json' });
  });

  it('hides unexpected errors behind a 500 with a request id, and answers the 30 s limit with 504', async () => {
    const group = newGroup();
    group.openapi(createRoute({ method: 'get', path: '/boom', responses: { 200: { description: 'never' } } }), () => {
      throw new Error('secret internals at /etc/passwd');
    });
    group.openapi(createRoute({ method: 'get', path: '/slow', responses: { 200: { description: 'late' } } }), async (c) => {
      await new Promise((r) => setTimeout(r, 500));
      return c.json({ late: true }, 200);
    });
    const logs: string[] = [];
    const services = { ...env.services, log: { ...env.services.log, error: (m: string, f?: object) => logs.push(JSON.stringify({ m, ...f })) } };
    const app = createPlatform({ groups: [group], services: async () => ({ services }), socketIp: () => '127.0.0.9', timeLimitMs: 50 });
    const res = await app.request('/boom');
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body.error.code).toBe('internal_error');
    const requestId = res.headers.get('x-request-id');
    expect(body.error.message).toContain(requestId);
    expect(JSON.stringify(body)).not.toContain('passwd');
    expect(logs.some((l) => l.includes(requestId!))).toBe(true);
    const slow = await app.request('/slow');
    expect(slow.status).toBe(504);
    expect((await slow.json()).error.code).toBe('request_timeout');
    z.string();
  });
});

describe('rate limits', () => {
  it('counts per key, sets the rate headers on every authenticated answer and refuses with Retry-After', async () => {
    const t = await newTenant(env);
    const key = await t.addKey({ rate_limit_per_minute: 10 });
    let last;
    for (let i = 0; i < 10; i++) {
      last = await t.call('GET', '/v1/me', { key, ip: randomIp() });
      expect(last.status).toBe(200);
    }
    expect(last!.headers.get('x-ratelimit-limit')).toBe('10');
    expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(last!.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 1);
    const refused = await t.call('GET', '/v1/leads?limit=0', { key, ip: randomIp() });
    expect(refused.status).toBe(429);
    expect(refused.json.error.code).toBe('rate_limit_exceeded');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('10');
    // An error after auth still carries the headers.
    const other = await t.addKey();
    const invalid = await t.call('GET', '/v1/leads?limit=0', { key: other });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('x-ratelimit-remaining')).not.toBeNull();
  });

  it('counts 120 requests per minute per IP, unauthenticated ones included', async () => {
    const t = await newTenant(env);
    const ip = randomIp();
    for (let i = 0; i < 60; i++) expect((await t.call('GET', '/v1/me', { key: null, ip })).status).toBe(401);
    for (let i = 0; i < 60; i++) expect((await t.call('GET', '/v1/me', { ip })).status).toBe(200);
    const refused = await t.call('GET', '/v1/me', { ip });
    expect(refused.status).toBe(429);
    expect(refused.json.error.code).toBe('ip_rate_limit_exceeded');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await t.call('GET', '/v1/me', { ip: randomIp() })).status).toBe(200);
  });
});

describe('auth', () => {
  it('never lets * grant crm scopes', async () => {
    const t = await newTenant(env, { features: { crm: true } });
    const { hasScope } = await import('../../lib/auth/scopes');
    expect(hasScope({ scopes: ['*'], readOnly: false }, 'crm.read')).toBe(false);
    expect(hasScope({ scopes: ['*'], readOnly: false }, 'leads.read')).toBe(true);
    expect(hasScope({ scopes: ['*'], readOnly: true }, 'leads.write')).toBe(false);
    expect(hasScope({ scopes: ['crm.read'], readOnly: false }, 'crm.read')).toBe(true);
    expect(t.key.startsWith('svc_live_')).toBe(true);
  });

  it('stores keys only as a hash and lets a cached key live at most 30 s after revocation', async () => {
    const t = await newTenant(env);
    const { key, secret } = await t.addKeyRecord({ prefix: 'partner' });
    expect(secret).toMatch(/^svc_partner_[A-Za-z0-9]{43}$/);
    const [row] = await env.services.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(JSON.stringify(row)).not.toContain(secret.slice(12));
    expect((await t.call('GET', '/v1/me', { key: secret })).status).toBe(200);
    // Revoked behind the API's back (another process): the cache may answer for up to 30 s, not longer.
    await env.services.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, key.id));
    env.clock.advance(29_000);
    expect((await t.call('GET', '/v1/me', { key: secret })).status).toBe(200);
    env.clock.advance(1_001);
    expect((await t.call('GET', '/v1/me', { key: secret })).status).toBe(401);
  });
});

describe('service endpoints', () => {
  it('serves healthz, the OpenAPI 3.1 document and a docs page that needs nothing from elsewhere', async () => {
    const t = await newTenant(env);
    expect((await t.call('GET', '/healthz', { key: null })).json).toEqual({ ok: true });
    const doc = (await t.call('GET', '/openapi.json', { key: null })).json;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/v1/leads'].get.security).toEqual([{ ServiceKey: ['leads.read'] }]);
    expect(doc.paths['/v1/leads'].get.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['campaign_id', 'classification', 'since', 'limit', 'offset']));
    const docs = await t.call('GET', '/docs', { key: null });
    expect(docs.status).toBe(200);
    // The reference UI reads /openapi.json with a script of this origin (test/api/docs_page.test.ts has the rest).
    expect(docs.text).toContain('data-url="/openapi.json"');
    expect(docs.text).toMatch(/<script src="\/docs\/scalar\.js\?v=[^"]+"><\/script>/);
    expect(docs.text).not.toMatch(/<script[^>]+src="(https?:)?\/\//);
  });
});

describe('security headers', () => {
  it('sends HSTS, nosniff, no framing and a CSP on every answer, errors included, and no-store on API answers', async () => {
    const t = await newTenant(env);
    const answers = {
      ok: await t.call('GET', '/v1/leads'),
      unauthorized: await t.call('GET', '/v1/leads', { key: null }),
      notFound: await t.call('GET', '/v1/no-such-route'),
      invalid: await t.call('GET', '/v1/leads?limit=0'),
      admin: await t.admin('POST', '/admin/v1/orgs', { name: 'headers' }),
      docs: await t.call('GET', '/docs', { key: null }),
    };
    expect(Object.values(answers).map((a) => a.status)).toEqual([200, 401, 404, 400, 201, 200]);
    for (const [name, a] of Object.entries(answers)) {
      expect(a.headers.get('strict-transport-security'), name).toMatch(/max-age=\d+/);
      expect(a.headers.get('x-content-type-options'), name).toBe('nosniff');
      expect(a.headers.get('x-frame-options'), name).toBe('DENY');
      expect(a.headers.get('content-security-policy'), name).toContain("default-src 'none'");
      expect(a.headers.get('cache-control'), name).toBe(name === 'docs' ? null : 'no-store');
    }
  });
});
