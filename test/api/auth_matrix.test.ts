// Generated from the OpenAPI document: every /v1 route is called with no key, a bad key, a revoked key, a key
// without the route's scope, and (for routes addressing an object) a valid key of another organization.
// A route added without a scope declaration or without tenant isolation makes this file fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant, randomIp, type Tenant } from '../helpers/tenant';
import { objectFixtures, sampleBody } from '../helpers/route_fixtures';

let env: TestEnv;
let victim: Tenant;
let attacker: Tenant;
let victimIds: Record<string, string>;
type Op = { method: string; path: string; scopes: string[] };
let ops: Op[] = [];
/** Routes authenticated by an inbound source's secret instead of an API key (sending tools' reply webhooks). */
let sourceOps: Op[] = [];
/** Routes authenticated by a bridge hook's secret (table tools posting rows into a client's pool). */
let hookOps: Op[] = [];

beforeAll(async () => {
  env = await startTestEnv();
  victim = await newTenant(env, { features: { crm: true, agency_tools: true, studio: true } });
  attacker = await newTenant(env, { features: { crm: true, agency_tools: true, studio: true } });
  victimIds = await objectFixtures(env, victim);
  const doc = (await attacker.call('GET', '/openapi.json', { key: null })).json;
  for (const [path, methods] of Object.entries<Record<string, any>>(doc.paths)) {
    if (!path.startsWith('/v1/')) continue;
    for (const [method, op] of Object.entries<any>(methods)) {
      if ((op.security ?? []).some((s: Record<string, string[]>) => 'BridgeSecret' in s)) {
        hookOps.push({ method: method.toUpperCase(), path, scopes: [] });
        continue;
      }
      if ((op.security ?? []).some((s: Record<string, string[]>) => 'InboundSecret' in s)) {
        sourceOps.push({ method: method.toUpperCase(), path, scopes: [] });
        continue;
      }
      const req = (op.security ?? []).find((s: Record<string, string[]>) => 'ServiceKey' in s);
      ops.push({ method: method.toUpperCase(), path, scopes: req ? req.ServiceKey : ['<undeclared>'] });
    }
  }
});
afterAll(() => env.close());

/** Agency routes take agency keys (organization-wide, agency.read + agency.write always; agency-operator.md §5). */
const isAgency = (op: Op) => op.path.startsWith('/v1/agency/');

const fill = (path: string, ids: Record<string, string>) =>
  path.replace(/\{(\w+)\}/g, (_, name) => {
    const id = ids[`${path}:${name}`] ?? ids[name];
    if (!id) throw new Error(`no fixture for {${name}} in ${path}: add one to test/helpers/route_fixtures.ts`);
    return id;
  });

describe('every /v1 route', () => {
  it('is found in the OpenAPI document and declares its scope', () => {
    expect(ops.length).toBeGreaterThanOrEqual(7);
    for (const op of ops) expect(op.scopes, `${op.method} ${op.path}`).not.toContain('<undeclared>');
  });

  it('answers 401 unauthorized without a key, with a malformed key and with an unknown key', async () => {
    for (const op of ops) {
      const path = fill(op.path, victimIds);
      for (const key of [null, 'not-a-key', 'svc_live_' + 'x'.repeat(43)]) {
        const r = await attacker.call(op.method, path, { key, body: sampleBody(op.method, op.path), ip: randomIp() });
        expect(r.status, `${op.method} ${op.path} key=${key}`).toBe(401);
        expect(r.json.error.code).toBe('unauthorized');
      }
    }
  });

  it('answers 401 for a revoked key', async () => {
    const { key, secret } = await attacker.addKeyRecord({ name: 'to revoke' });
    expect((await attacker.call('GET', '/v1/me', { key: secret })).status).toBe(200);
    const revoked = await attacker.admin('PATCH', `/admin/v1/keys/${key.id}`, { revoked: true });
    expect(revoked.status).toBe(200);
    for (const op of ops) {
      const r = await attacker.call(op.method, fill(op.path, victimIds), { key: secret, body: sampleBody(op.method, op.path), ip: randomIp() });
      expect(r.status, `${op.method} ${op.path}`).toBe(401);
    }
  });

  it('answers 403 insufficient_scope to a key without the route scope', async () => {
    const ownIds = await objectFixtures(env, attacker);
    for (const op of ops.filter((o) => o.scopes.length > 0)) {
      // A key holding every other scope but this one (crm and agency scopes are never implied by *).
      const others = ['suggest', 'leads.read', 'leads.write', 'replies.send', 'replies.approve', 'campaigns.read', 'reports.read', 'webhooks.manage'].filter(
        (s) => !op.scopes.includes(s),
      );
      const key = await attacker.addKey({ scopes: others as never, client_id: op.path.startsWith('/v1/crm') ? attacker.client.id : null });
      const r = await attacker.call(op.method, fill(op.path, ownIds), { key, body: sampleBody(op.method, op.path), ip: randomIp() });
      expect(r.status, `${op.method} ${op.path}`).toBe(403);
      expect(r.json.error.code).toBe('insufficient_scope');
    }
  });

  it("answers 404 (never 200 or 403) for another organization's objects", async () => {
    const addressed = ops.filter((o) => o.path.includes('{'));
    expect(addressed.length).toBeGreaterThan(0);
    for (const op of addressed) {
      const key = isAgency(op)
        ? await attacker.addKey({ kind: 'agency', scopes: op.scopes.filter((sc) => sc === 'agency.plans.approve') as never })
        : await attacker.addKey({ scopes: [...op.scopes, '*'] as never, client_id: op.path.startsWith('/v1/crm') ? attacker.client.id : null });
      const r = await attacker.call(op.method, fill(op.path, victimIds), { key, body: sampleBody(op.method, op.path), ip: randomIp() });
      expect(r.status, `${op.method} ${op.path} → ${r.text.slice(0, 160)}`).toBe(404);
      expect(r.json.error.code).toBe('not_found');
    }
  });
});

describe('every /v1 route authenticated by an inbound source secret', () => {
  it('exists, and answers 401 without the secret, with a wrong one, an API key, or another organization\'s secret; stores nothing', async () => {
    expect(sourceOps.map((o) => `${o.method} ${o.path}`)).toEqual(['POST /v1/inbound/{source_id}']);
    const attackerIds = await objectFixtures(env, attacker);
    for (const op of sourceOps) {
      const path = fill(op.path, victimIds);
      const presented: Array<Record<string, string>> = [
        {},
        { 'x-inbound-secret': 'insec_' + 'x'.repeat(43) },
        { 'x-inbound-secret': victim.key },
        { 'x-service-key': victim.key },
        { authorization: `Bearer ${attackerIds.inbound_secret}` },
        { 'x-inbound-secret': attackerIds.inbound_secret },
      ];
      for (const headers of presented) {
        const r = await attacker.call(op.method, path, { key: null, headers, body: sampleBody(op.method, op.path), ip: randomIp() });
        expect(r.status, `${op.method} ${op.path} ${Object.keys(headers).join(',')}`).toBe(401);
        expect(r.json.error.code).toBe('unauthorized');
      }
      // The attacker's own valid secret on the attacker's own source works: the refusals above are about the pairing.
      const own = await attacker.call(op.method, fill(op.path, attackerIds), { key: null, headers: { 'x-inbound-secret': attackerIds.inbound_secret }, body: sampleBody(op.method, op.path), ip: randomIp() });
      expect(own.status).toBe(200);
    }
    const victimReplies = await victim.call('GET', '/v1/leads');
    expect(victimReplies.json.leads.map((l: any) => l.email)).not.toContain('fixture@prospect.io');
  });
});

describe('every /v1 route authenticated by a bridge hook secret', () => {
  it("exists, and answers 401 without the secret, with a wrong one, an API key, or another tenant's hook secret; stores nothing", async () => {
    expect(hookOps.map((o) => `${o.method} ${o.path}`)).toEqual(['POST /v1/bridge/inbound/{hook_id}']);
    const attackerIds = await objectFixtures(env, attacker);
    for (const op of hookOps) {
      const path = fill(op.path, victimIds);
      const presented: Array<Record<string, string>> = [
        {},
        { 'x-bridge-secret': 'brsec_' + 'x'.repeat(43) },
        { 'x-bridge-secret': victim.key },
        { 'x-service-key': victim.key },
        { authorization: `Bearer ${attackerIds.bridge_secret}` },
        { 'x-bridge-secret': attackerIds.bridge_secret },
      ];
      for (const headers of presented) {
        const r = await attacker.call(op.method, path, { key: null, headers, body: sampleBody(op.method, op.path), ip: randomIp() });
        expect(r.status, `${op.method} ${op.path} ${Object.keys(headers).join(',')}`).toBe(401);
        expect(r.json.error.code).toBe('unauthorized');
      }
      const own = await attacker.call(op.method, fill(op.path, attackerIds), { key: null, headers: { 'x-bridge-secret': attackerIds.bridge_secret }, body: sampleBody(op.method, op.path), ip: randomIp() });
      expect(own.status, own.text).toBe(200);
    }
    const victimPool = await victim.call('GET', `/v1/agency/clients/${victim.client.id}/leads`, { key: await victim.addKey({ kind: 'agency', scopes: [] }) });
    if (victimPool.status === 200) expect(victimPool.json.leads.map((l: any) => l.email)).not.toContain('fixture@fixture-table.example');
  });
});

describe('client-locked keys', () => {
  it("answer 404 for objects of another client of the same organization", async () => {
    const ownIds = await objectFixtures(env, attacker);
    const otherClient = await attacker.addClient('Client elsewhere');
    // Agency keys are never client-locked (agency-operator.md §5): agency routes are not in this test.
    const addressed = ops.filter((o) => o.path.includes('{') && !isAgency(o));
    for (const op of addressed) {
      const scopes = op.scopes.length ? op.scopes : ['leads.read'];
      const key = await attacker.addKey({ scopes: scopes as never, client_id: otherClient.id });
      const r = await attacker.call(op.method, fill(op.path, ownIds), { key, body: sampleBody(op.method, op.path), ip: randomIp() });
      // CRM routes refuse keys of a client without CRM-visible leads the same way: 404 for the object.
      expect([404], `${op.method} ${op.path} → ${r.status} ${r.text.slice(0, 120)}`).toContain(r.status);
    }
  });

  it('see only their own client in every list', async () => {
    const otherClient = await attacker.addClient('Client list-check');
    const key = await attacker.addKey({ client_id: otherClient.id, scopes: ['*'] as never });
    for (const path of ['/v1/leads', '/v1/campaigns', '/v1/reports', '/v1/replies?status=queued', '/v1/webhooks']) {
      const r = await attacker.call('GET', path, { key, ip: randomIp() });
      expect(r.status, path).toBe(200);
      const list = r.json.leads ?? r.json.campaigns ?? r.json.reports ?? r.json.replies ?? r.json.webhooks;
      expect(list, path).toEqual([]);
    }
  });
});
