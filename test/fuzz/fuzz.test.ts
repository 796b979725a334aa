// Property-based fuzzing of every route in the OpenAPI document: bodies and query strings generated from each
// route's schema and around it. The service must never answer 5xx, must always answer errors in the envelope,
// and a refused request must write nothing. `npm run fuzz` runs 10,000 cases per route (FUZZ_RUNS).
//
// CI runs a fixed total of cases shared by the routes, CI_CASES / routes each (at least 25), not a fixed count per
// route: at 100 a route this file took 160 s of a 26-minute CI with 142 routes and grew with every route (issue
// 18). A fixed total keeps CI's time flat as routes are added, while each route still gets dozens of generated
// cases a run; fast-check draws new ones each run, so coverage accumulates across CI runs, and the deep search is
// `npm run fuzz`'s job. FUZZ_RUNS, when set, is the count per route.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allGroups } from '../../functions/groups';
import { createPlatform } from '../../lib/http/platform';
import { ADMIN_TOKEN, startTestEnv, type TestEnv } from '../helpers/harness';
import { objectFixtures } from '../helpers/route_fixtures';
import { newTenant, randomIp, request, type Tenant } from '../helpers/tenant';
import { aroundObject, aroundQuery, resolve, type Components } from './schema_arbitrary';
import { writesOf } from '../helpers/writes';

// The routes are known before any test runs (one test per route, each with its own time limit): the same document
// the server serves, built from the same groups without services. The first test checks the two are equal.
const built = createPlatform({ groups: allGroups, services: () => Promise.reject(new Error('not served')), socketIp: () => undefined });
const staticDoc = built.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'fuzz', version: '0' } }) as any;
let env: TestEnv;
let t: Tenant;
let ids: Record<string, string>;
let keys: string[] = [];
let crmKeys: string[] = [];
let agencyKeys: string[] = [];
let doc: any;

beforeAll(async () => {
  env = await startTestEnv();
  t = await newTenant(env, { features: { crm: true, agency_tools: true, studio: true } });
  ids = await objectFixtures(env, t);
  for (let i = 0; i < 12; i++) {
    keys.push(await t.addKey({ rate_limit_per_minute: 1000, daily_credit_limit: 10_000 }));
    crmKeys.push(await t.addKey({ rate_limit_per_minute: 1000, client_id: t.client.id, scopes: ['crm.read', 'crm.write'] }));
    agencyKeys.push(
      await t.addKey({ kind: 'agency', rate_limit_per_minute: 1000, daily_credit_limit: 10_000, scopes: ['replies.send', 'replies.approve', 'leads.read', 'reports.read', 'campaigns.read'] }),
    );
  }
  doc = (await t.call('GET', '/openapi.json', { key: null })).json;
}, 120_000);
afterAll(() => env.close());

/** Rows a refused request must not have touched (test/helpers/writes.ts). */
const writes = (orgId: string) => writesOf(env.services.db, orgId);

type Op = { method: string; path: string; op: any };
const operations = (d: any): Op[] =>
  Object.entries<Record<string, any>>(d.paths).flatMap(([path, methods]) =>
    Object.entries<any>(methods).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );
const fuzzed = operations(staticDoc).filter(({ path }) => path !== '/healthz' && path !== '/openapi.json' && path !== '/docs');

/** CI's case budget for the whole file (about 11 ms a case on the 2-core CI machine: ~70 s). */
const CI_CASES = 6_000;
const RUNS = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : Math.max(25, Math.floor(CI_CASES / fuzzed.length));
// Per route: ~5-11 ms a case; room for a loaded machine (npm run fuzz: 10,000 → 9 min a route).
const ROUTE_TIMEOUT_MS = 60_000 + RUNS * 50;

const fill = (path: string, weird: string | null) =>
  path.replace(/\{(\w+)\}/g, (_, name) => weird ?? ids[`${path}:${name}`] ?? ids[name] ?? t.org.id);

describe('fuzzing every route', () => {
  it('covers every route of the served OpenAPI document', () => {
    const served = operations(doc).map((o) => `${o.method} ${o.path}`).sort();
    expect(operations(staticDoc).map((o) => `${o.method} ${o.path}`).sort()).toEqual(served);
    expect(fuzzed.length).toBeGreaterThan(10);
  });

  let n = 0;
  for (const { method, path, op } of fuzzed) {
    it(`${method} ${path}: never 5xx, always the envelope, nothing written when refused (${RUNS} cases)`, async () => {
      const components: Components = staticDoc.components?.schemas ?? {};
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      const body = bodySchema ? aroundObject(resolve(bodySchema, components), components) : fc.constant(undefined);
      const query = aroundQuery(op.parameters ?? [], components);
      const weirdId = fc.option(fc.constantFrom('not-a-uuid', '00000000-0000-4000-8000-000000000000', '%27%20or%201%3D1', 'wh-nope', '..%2F..'), { nil: null, freq: 3 });
      const truncated = fc.boolean();
      await fc.assert(
        fc.asyncProperty(body, query, weirdId, truncated, async (b, q, weird, cut) => {
          n++;
          const admin = path.startsWith('/admin/');
          // A sending tool's webhook carries its source's secret, not an API key.
          const inbound = path.startsWith('/v1/inbound/');
          // A table tool's rows carry its bridge hook's secret.
          const bridge = path.startsWith('/v1/bridge/');
          const key = path.startsWith('/v1/crm') ? crmKeys[n % crmKeys.length] : path.startsWith('/v1/agency/') ? agencyKeys[n % agencyKeys.length] : keys[n % keys.length];
          let raw: string | undefined;
          if (b !== undefined) {
            raw = JSON.stringify(b) ?? 'null';
            if (cut && raw.length > 2) raw = raw.slice(0, Math.max(1, Math.floor(raw.length / 2)));
          }
          const before = await writes(t.org.id);
          const r = await request(env, method, fill(path, weird) + q, {
            key: admin || inbound || bridge ? null : key,
            raw,
            headers: {
              'content-type': 'application/json',
              ...(admin ? { authorization: `Bearer ${ADMIN_TOKEN}` } : {}),
              ...(inbound ? { 'x-inbound-secret': ids.inbound_secret } : {}),
              ...(bridge ? { 'x-bridge-secret': ids.bridge_secret } : {}),
            },
            ip: randomIp(),
          });
          const what = `${method} ${path}${q} body=${raw?.slice(0, 200)} → ${r.status} ${r.text.slice(0, 200)}`;
          expect(r.status, what).toBeLessThan(500);
          if (r.status >= 400) {
            expect(typeof r.json?.error?.code, what).toBe('string');
            expect(typeof r.json?.error?.message, what).toBe('string');
            expect(await writes(t.org.id), what).toBe(before);
          }
        }),
        { numRuns: RUNS },
      );
    }, ROUTE_TIMEOUT_MS);
  }
});
