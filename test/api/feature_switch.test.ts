// Admin changes to what a key resolves to (an organization's features, a key's scopes, revocation) reach existing
// keys on their next request: in the process that served the change through its own cache, in every other
// process through the organization's version stamp read in the request's one limiter round trip. When the limits
// store is down, the 30 s cache lifetime remains the bound.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { KeyCache, orgStamp } from '../../lib/auth/keys';
import { createMemoryLimits } from '../../lib/limits/memory';
import { createUpstashLimits } from '../../lib/limits/upstash';
import { createNodeApp } from '../../scripts/node_server';
import type { NodeServices } from '../../lib/runtime/node';
import { startUpstashBridge } from '../infra/upstash_bridge';
import { startTestEnv, TIER, type TestEnv } from '../helpers/harness';
import { newTenant, randomIp, request, type Tenant } from '../helpers/tenant';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

/** Another process (a Worker isolate, a second Node server) on the same database and limits store. */
function otherProcess(services: Partial<NodeServices> = {}) {
  const app = createNodeApp({ ...env.services, keyCache: new KeyCache(), ...services } as NodeServices);
  return (method: string, path: string, key: string | null, body?: unknown) => request({ ...env, app } as TestEnv, method, path, { key, body, ip: randomIp() });
}

async function crmTenant(): Promise<{ t: Tenant; crmKey: string }> {
  const t = await newTenant(env, { features: { crm: false } });
  const crmKey = await t.addKey({ scopes: ['crm.read'], client_id: t.client.id });
  return { t, crmKey };
}

describe('switching a feature', () => {
  it('takes effect on the next request of an existing key in the process that served the change', async () => {
    const { t, crmKey } = await crmTenant();
    const before = await t.call('GET', '/v1/crm/leads', { key: crmKey });
    expect([before.status, before.json.error.code]).toEqual([403, 'feature_not_enabled']);
    expect((await t.admin('PATCH', `/admin/v1/orgs/${t.org.id}`, { features: { crm: true } })).status).toBe(200);
    expect((await t.call('GET', '/v1/crm/leads', { key: crmKey })).status).toBe(200);
    expect((await t.admin('PATCH', `/admin/v1/orgs/${t.org.id}`, { features: { crm: false } })).status).toBe(200);
    expect((await t.call('GET', '/v1/crm/leads', { key: crmKey })).json.error.code).toBe('feature_not_enabled');
  });

  it('takes effect on the next request in another process that had the key cached', async () => {
    const { t, crmKey } = await crmTenant();
    const other = otherProcess();
    expect((await other('GET', '/v1/crm/leads', crmKey)).status).toBe(403);
    expect((await t.admin('PATCH', `/admin/v1/orgs/${t.org.id}`, { features: { crm: true } })).status).toBe(200);
    expect((await other('GET', '/v1/crm/leads', crmKey)).status).toBe(200);
    expect((await t.admin('PATCH', `/admin/v1/orgs/${t.org.id}`, { features: { crm: false } })).status).toBe(200);
    expect((await other('GET', '/v1/crm/leads', crmKey)).status).toBe(403);
  });

  it("leaves other organizations' cached keys alone", async () => {
    const { t } = await crmTenant();
    const bystander = await newTenant(env);
    const other = otherProcess();
    const queriesOf = async () => {
      const before = env.services.dbStats.queries;
      expect((await other('GET', '/v1/me', bystander.key)).status).toBe(200);
      return env.services.dbStats.queries - before;
    };
    await queriesOf(); // caches the key
    const cached = await queriesOf();
    expect((await t.admin('PATCH', `/admin/v1/orgs/${t.org.id}`, { features: { crm: true } })).status).toBe(200);
    expect(await queriesOf()).toBe(cached); // no key lookup added for another organization's key
  });
});

describe('changing or revoking a key', () => {
  it('a revoked key is refused on its next request everywhere, not 30 s later', async () => {
    const t = await newTenant(env);
    const { key, secret } = await t.addKeyRecord({ name: 'to revoke' });
    const other = otherProcess();
    expect((await other('GET', '/v1/me', secret)).status).toBe(200);
    expect((await t.call('GET', '/v1/me', { key: secret })).status).toBe(200);
    expect((await t.admin('PATCH', `/admin/v1/keys/${key.id}`, { revoked: true })).status).toBe(200);
    expect((await t.call('GET', '/v1/me', { key: secret })).status).toBe(401);
    expect((await other('GET', '/v1/me', secret)).status).toBe(401);
    expect((await t.admin('PATCH', `/admin/v1/keys/${key.id}`, { revoked: false })).status).toBe(200);
    expect((await other('GET', '/v1/me', secret)).status).toBe(200);
  });

  it('new scopes apply on the next request in another process', async () => {
    const t = await newTenant(env);
    const { key, secret } = await t.addKeyRecord({ name: 'reader', scopes: ['leads.read'] });
    const other = otherProcess();
    expect((await other('GET', '/v1/campaigns', secret)).status).toBe(403);
    expect((await t.admin('PATCH', `/admin/v1/keys/${key.id}`, { scopes: ['leads.read', 'campaigns.read'] })).status).toBe(200);
    expect((await other('GET', '/v1/campaigns', secret)).status).toBe(200);
    expect((await other('GET', '/v1/me', secret)).json.key.scopes).toEqual(['leads.read', 'campaigns.read']);
  });
});

describe('when the limits store is down', () => {
  it('falls back to the 30 s cache lifetime, and the admin change itself still succeeds', async () => {
    const { t, crmKey } = await crmTenant();
    const dead = createUpstashLimits({ url: 'http://127.0.0.1:1', token: 'unused' });
    const cut = otherProcess({ limits: dead });
    expect((await cut('GET', '/v1/crm/leads', crmKey)).status).toBe(403); // cached now; limits fail open
    // The admin change is served by a process whose store is down too: committed, the bump only logged.
    const admin = createNodeApp({ ...env.services, limits: dead } as NodeServices);
    const patched = await request({ ...env, app: admin } as TestEnv, 'PATCH', `/admin/v1/orgs/${t.org.id}`, {
      key: null,
      body: { features: { crm: true } },
      headers: { authorization: `Bearer ${env.config.ADMIN_TOKEN}` },
      ip: randomIp(),
    });
    expect([patched.status, patched.json.org.features.crm]).toEqual([200, true]);
    expect((await cut('GET', '/v1/crm/leads', crmKey)).status).toBe(403);
    env.clock.advance(30_001);
    expect((await cut('GET', '/v1/crm/leads', crmKey)).status).toBe(200);
  });
});

describe('the version stamp', () => {
  it('moves on every bump and reads "0" before the first, in the same call as the limits', async () => {
    const limits = env.services.limits;
    const name = orgStamp(crypto.randomUUID());
    const first = await limits.checkAndReadStamp([{ name: 'stamp-test', id: 'a', limit: 5, windowSec: 60 }], name);
    expect(first.stamp).toBe('0');
    expect(first.results).toEqual([expect.objectContaining({ success: true, limit: 5, remaining: 4 })]);
    await limits.bumpStamp(name);
    const second = await limits.checkAndReadStamp([], name);
    expect(second.stamp).not.toBe(first.stamp);
  });

  it('is not trusted for a key read from the database before a concurrent read of the stamp came back', () => {
    const cache = new KeyCache();
    cache.noteStamp('org-1', '4');
    const mark = cache.mark();
    expect(cache.stampBefore('org-1', mark)).toBe('4');
    cache.noteStamp('org-1', '5'); // read while the key's row was being read: the row may predate that change
    expect(cache.stampBefore('org-1', mark)).toBeUndefined();
    expect(cache.stampBefore('org-1', cache.mark())).toBe('5');
  });

  it('the embedded store keeps stamps in the process', async () => {
    const limits = createMemoryLimits(env.clock);
    await limits.bumpStamp('org:x');
    expect((await limits.checkAndReadStamp([], 'org:x')).stamp).toBe('1');
    expect((await limits.checkAndReadStamp([], 'org:y')).stamp).toBe('0');
  });
});

describe.skipIf(TIER !== 'integration' || !process.env.TEST_REDIS_URL)('Redis round trips (Upstash clients over the bridge)', () => {
  it('a request still makes one HTTP round trip to Redis: limits and stamp in one pipeline', async () => {
    const bridge = await startUpstashBridge({ redisUrl: process.env.TEST_REDIS_URL!, token: 'stamp-test-token' });
    try {
      const limits = createUpstashLimits({ url: bridge.url, token: bridge.token, prefix: `fs${Date.now().toString(36)}` });
      const { t, crmKey } = await crmTenant();
      const one = otherProcess({ limits });
      const admin = createNodeApp({ ...env.services, limits } as NodeServices);
      const call = async (key: string) => {
        bridge.resetStats();
        const r = await one('GET', '/v1/crm/leads', key);
        return { status: r.status, trips: bridge.stats.requests, commands: bridge.stats.commands };
      };
      await call(crmKey); // loads the Ratelimit scripts into Redis (NOSCRIPT → EVAL once)
      expect(await call(crmKey)).toEqual({ status: 403, trips: 1, commands: 3 });
      const patched = await request({ ...env, app: admin } as TestEnv, 'PATCH', `/admin/v1/orgs/${t.org.id}`, {
        key: null,
        body: { features: { crm: true } },
        headers: { authorization: `Bearer ${env.config.ADMIN_TOKEN}` },
        ip: randomIp(),
      });
      expect(patched.status).toBe(200);
      expect(await call(crmKey)).toEqual({ status: 200, trips: 1, commands: 3 });
      expect(await call(crmKey)).toEqual({ status: 200, trips: 1, commands: 3 });
      expect(inject('upstashUrl')).toBeTruthy();
    } finally {
      await bridge.close();
    }
  });
});
