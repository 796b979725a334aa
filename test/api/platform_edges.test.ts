// The API's rough edges as an integrator meets them: every validation problem listed, a repeated query parameter
// named as such, a wrong method answered 405 with Allow, and a read-only key told that it is read-only.
import { createRoute, z } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meGroup } from '../../functions/me/app';
import { newGroup } from '../../lib/http/env';
import { createPlatform } from '../../lib/http/platform';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant, randomIp } from '../helpers/tenant';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

/** A platform around only `groups`, as one Worker serves them, on this test's services. */
function workerLike(groups: ReturnType<typeof newGroup>[], services = env.services) {
  return createPlatform({ groups, services: async () => ({ services }), socketIp: () => randomIp() });
}

describe('validation errors list every problem', () => {
  it('names the first problem in the message and lists each one with its path in error.details', async () => {
    const t = await newTenant(env);
    const r = await t.call('GET', '/v1/leads?limit=0&classification=lukewarm&since=yesterday');
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('validation_error');
    const details: { path: string; message: string }[] = r.json.error.details;
    expect(details.map((d) => d.path).sort()).toEqual(['classification', 'limit', 'since']);
    for (const d of details) expect(d.message.length, d.path).toBeGreaterThan(0);
    expect(r.json.error.message).toBe(`${details[0].path}: ${details[0].message}`);
  });

  it('lists every problem of a body, nested paths included', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    const r = await t.call('PATCH', `/v1/leads/${reply.id}`, { body: { classification: 'lukewarm', notes: 42 } });
    expect(r.status).toBe(400);
    expect(r.json.error.details.map((d: any) => d.path).sort()).toEqual(['classification', 'notes']);
    expect(r.json.error.message).toMatch(/^(classification|notes): /);
    const unknown = await t.call('PATCH', `/v1/leads/${reply.id}`, { body: { classification: 'hot', colour: 'red' } });
    expect(unknown.json.error).toEqual({
      code: 'validation_error',
      message: 'body: unknown field(s) colour',
      details: [{ path: 'body', message: 'unknown field(s) colour' }],
    });
  });

  it('answers a repeated query parameter with "<name>: given more than once"', async () => {
    const t = await newTenant(env);
    const r = await t.call('GET', '/v1/leads?limit=10&limit=20');
    expect(r.status).toBe(400);
    expect(r.json.error).toEqual({ code: 'validation_error', message: 'limit: given more than once', details: [{ path: 'limit', message: 'given more than once' }] });
    const id = t.campaign.id;
    const twice = await t.call('GET', `/v1/leads?campaign_id=${id}&campaign_id=${id}&offset=-1`);
    expect(twice.status).toBe(400);
    expect(twice.json.error.details).toEqual(expect.arrayContaining([{ path: 'campaign_id', message: 'given more than once' }, expect.objectContaining({ path: 'offset' })]));
    // Other lists too (the admin API's, a CRM feed's).
    expect((await t.admin('GET', `/admin/v1/orgs/${t.org.id}/opt-outs?limit=5&limit=5`)).json.error?.message).toBe('limit: given more than once');
  });

  it('refuses a repeated parameter even where the schema would have accepted the list', async () => {
    const group = newGroup();
    group.openapi(
      createRoute({ method: 'get', path: '/v1/echo', request: { query: z.object({ q: z.coerce.string().optional(), tags: z.array(z.string()).optional() }) }, responses: { 200: { description: 'echo' } } }),
      (c) => c.json(c.req.valid('query'), 200),
    );
    const app = workerLike([group]);
    const t = await newTenant(env);
    const call = (qs: string) => app.request(`/v1/echo?${qs}`, { headers: { 'x-service-key': t.key } });
    const r = await call('q=a&q=b');
    expect(r.status).toBe(400);
    expect((await r.json()).error.message).toBe('q: given more than once');
    // A parameter declared as a list takes repetition; one given once passes.
    expect(await (await call('q=a&tags=x&tags=y')).json()).toEqual({ q: 'a', tags: ['x', 'y'] });
  });

  it('documents details in the Error schema', async () => {
    const t = await newTenant(env);
    const doc = (await t.call('GET', '/openapi.json', { key: null })).json;
    expect(doc.components.schemas.Error.properties.error.properties.details.type).toBe('array');
    expect(doc.components.schemas.Error.properties.error.required).not.toContain('details');
    expect(doc.components.schemas.Error.example.error.details.length).toBeGreaterThan(0);
  });
});

describe('a known path with the wrong method', () => {
  it('answers 405 method_not_allowed with an Allow header; an unknown path stays a 404', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    const del = await t.call('DELETE', '/v1/leads');
    expect(del.status).toBe(405);
    expect(del.headers.get('allow')).toBe('GET, HEAD');
    expect(del.json.error).toEqual({ code: 'method_not_allowed', message: 'DELETE is not allowed on /v1/leads; use GET, HEAD' });
    expect(del.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(del.headers.get('cache-control')).toBe('no-store');

    const put = await t.call('PUT', `/v1/leads/${reply.id}`, { body: { classification: 'hot' } });
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'PATCH']);
    const get = await t.call('GET', `/v1/replies/${reply.id}/send`);
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    const health = await t.call('POST', '/healthz', { key: null });
    expect([health.status, health.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    const docs = await t.call('DELETE', '/openapi.json', { key: null });
    expect(docs.status).toBe(405);

    const unknown = await t.call('GET', '/v1/nothing-here');
    expect([unknown.status, unknown.json.error.code]).toEqual([404, 'not_found']);
    expect(unknown.headers.get('allow')).toBeNull();
    // Authentication comes first under /v1, as for every other answer there.
    expect((await t.call('DELETE', '/v1/leads', { key: null })).status).toBe(401);
  });

  it('is a 405 on the admin API only when the admin API exists and the token is right', async () => {
    const t = await newTenant(env);
    const wrong = await t.admin('DELETE', '/admin/v1/orgs');
    expect([wrong.status, wrong.headers.get('allow'), wrong.json.error.code]).toEqual([405, 'POST', 'method_not_allowed']);
    expect((await t.admin('DELETE', '/admin/v1/orgs', undefined, 'not-the-token')).status).toBe(401);
    const noAdmin = workerLike([meGroup], { ...env.services, config: { ...env.services.config, ADMIN_TOKEN: undefined } } as never);
    const { adminGroup } = await import('../../functions/admin/app');
    const closed = await workerLike([adminGroup], { ...env.services, config: { ...env.services.config, ADMIN_TOKEN: undefined } } as never).request('/admin/v1/orgs', { method: 'DELETE' });
    expect(closed.status).toBe(404);
    expect(closed.headers.get('allow')).toBeNull();
    expect((await noAdmin.request('/healthz')).status).toBe(200);
  });

  it('behaves alike in a one-group Worker: its own paths 405, other groups\' paths 404', async () => {
    const t = await newTenant(env);
    const me = workerLike([meGroup]);
    const headers = { 'x-service-key': t.key };
    const post = await me.request('/v1/me', { method: 'POST', headers });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    expect((await post.json()).error.code).toBe('method_not_allowed');
    const other = await me.request('/v1/leads', { method: 'DELETE', headers });
    expect(other.status).toBe(404);
    expect((await me.request('/v1/me', { method: 'HEAD', headers })).status).toBe(200);
  });
});

describe('read-only keys', () => {
  it('GET /v1/me shows read_only', async () => {
    const t = await newTenant(env);
    const readOnly = await t.addKey({ read_only: true });
    expect((await t.call('GET', '/v1/me', { key: readOnly })).json.key.read_only).toBe(true);
    expect((await t.call('GET', '/v1/me')).json.key.read_only).toBe(false);
  });

  it('a write with a read-only key says the key is read-only; a missing scope still says it is missing', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    const readOnly = await t.addKey({ read_only: true });
    const r = await t.call('PATCH', `/v1/leads/${reply.id}`, { key: readOnly, body: { classification: 'hot' } });
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('insufficient_scope');
    expect(r.json.error.message).toBe('this key is read-only: it may not use the leads.write scope, which changes data');
    const send = await t.call('POST', `/v1/replies/${reply.id}/send`, { key: await t.addKey({ scopes: ['replies.send'], read_only: true }), body: { body: 'x' } });
    expect(send.json.error.message).toMatch(/^this key is read-only: .*replies\.send/);

    const reader = await t.addKey({ scopes: ['leads.read'] });
    const missing = await t.call('PATCH', `/v1/leads/${reply.id}`, { key: reader, body: { classification: 'hot' } });
    expect([missing.status, missing.json.error]).toEqual([403, { code: 'insufficient_scope', message: 'this key lacks the leads.write scope' }]);
    const readOnlyReader = await t.addKey({ scopes: ['leads.read'], read_only: true });
    const both = await t.call('PATCH', `/v1/leads/${reply.id}`, { key: readOnlyReader, body: { classification: 'hot' } });
    expect(both.json.error.message).toBe('this key lacks the leads.write scope');
    // Reads are untouched.
    expect((await t.call('GET', '/v1/leads', { key: readOnly })).status).toBe(200);
  });
});
