// `npm run bench:read`: the read paths through the whole stack (auth, limits, validation, envelope) beside two
// baselines in the same process running the same SQL: a bare Hono route with none of that, and the bare route plus
// the same limiter call the stack makes (one `checkAndReadStamp` with the per-IP and per-key checks and the
// organization's stamp), so the framework's own overhead shows apart from the limiter's. Prints req/s, p50, p99,
// the ratios, and DB and Redis round trips per request. Embedded PGlite and in-process limits by default; with
// BENCH_POSTGRES_URL (and BENCH_REDIS_URL) it runs the production adapters: the Neon driver over the WebSocket
// relay to that PostgreSQL (a fresh database, dropped afterwards) and Upstash clients over the REST bridge to that
// Redis.
import { serve } from '@hono/node-server';
import { Hono, type MiddlewareHandler } from 'hono';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { orgStamp } from '../lib/auth/keys';
import { loadConfig } from '../lib/config';
import { getReply } from '../lib/leads/get_reply';
import { listLeads } from '../lib/leads/list_leads';
import { createNodeServices } from '../lib/runtime/node';
import { createNodeApp } from '../scripts/node_server';
import { benchAdapters } from './adapters';
import { fmt, load, table, type Load } from './lib';
import { seedLeads } from './seed';

const LEADS = Number(process.env.BENCH_LEADS ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

const dataDir = mkdtempSync(join(tmpdir(), 'ris-bench-'));
const real = await benchAdapters('read');
// Limits stay in the process unless UPSTASH_* is configured: the benchmark measures the code path the deployment uses.
// TRUST_PROXY lets each request carry its own client address, so the per-IP limit is counted, not hit.
const config = loadConfig({ ...process.env, ...real.env, DATA_DIR: dataDir, LOG_LEVEL: 'error', PORT: '0', TRUST_PROXY: 'true' });
const services = await createNodeServices(config);
console.log(`seeding ${LEADS} leads into ${config.DATABASE_URL ? 'Postgres (DATABASE_URL)' : 'embedded PGlite'} …`);
const { org, keys, keyIds, replyId } = await seedLeads(services.db, LEADS);

// Both servers count the requests they answer, so round trips per request are exact (autocannon's total
// leaves out requests still in flight when a run stops).
const served = { n: 0 };
const counting = (fetch: (r: Request) => Response | Promise<Response>) => async (r: Request) => {
  const res = await fetch(r);
  served.n++;
  return res;
};
const listen = (fetch: (r: Request) => Response | Promise<Response>) =>
  new Promise<{ port: number; close(): void }>((resolve) => {
    const s = serve({ fetch: counting(fetch), hostname: '127.0.0.1', port: 0 }, (info) => resolve({ port: info.port, close: () => s.close() }));
  });
const app = createNodeApp(services);
const server = await listen((r) => app.fetch(r));
const bare = new Hono();
const tenant = { orgId: org.id, clientId: null };
bare.get('/bare/leads', async (c) => c.json(await listLeads({ db: services.db, tenant, input: { limit: 50, offset: 0 } })));
bare.get('/bare/replies/:id', async (c) => c.json(await getReply({ db: services.db, tenant, replyId: c.req.param('id') })));
// The third baseline: the bare route behind the limiter call the stack's auth middleware makes (lib/http/auth.ts):
// the per-IP limit (120/min) and the key's own limit counted, and the organization's key stamp read, in one call to
// the limits port. The key is looked up in a map here (the stack resolves it from its key cache).
const IP_LIMIT = { name: 'ip', limit: 120, windowSec: 60 };
const keyIdOf = new Map(keys.map((k, i) => [k, keyIds[i]]));
const limited: MiddlewareHandler = async (c, next) => {
  const keyId = keyIdOf.get(c.req.header('x-service-key') ?? '');
  if (!keyId) return c.json({ error: 'unknown key' }, 401);
  const ip = c.req.header('x-forwarded-for')?.split(',')[0]?.trim() || 'unknown';
  const checks = [{ ...IP_LIMIT, id: ip }, { name: 'key', id: keyId, limit: 1000, windowSec: 60 }];
  const { results } = await services.limits.checkAndReadStamp(checks, orgStamp(org.id));
  if (!results.every((r) => r.success)) return c.json({ error: 'rate limited' }, 429);
  await next();
};
bare.get('/limited/leads', limited, async (c) => c.json(await listLeads({ db: services.db, tenant, input: { limit: 50, offset: 0 } })));
bare.get('/limited/replies/:id', limited, async (c) => c.json(await getReply({ db: services.db, tenant, replyId: c.req.param('id') })));
const bareServer = await listen((r) => bare.fetch(r));

const full = `http://127.0.0.1:${server.port}`;
const base = `http://127.0.0.1:${bareServer.port}`;
let n = 0;
const headers = () => {
  n++;
  return { 'x-service-key': keys[n % keys.length], 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` };
};
const paths = [
  { name: 'GET /v1/leads?limit=50', full: `${full}/v1/leads?limit=50`, bare: `${base}/bare/leads`, limited: `${base}/limited/leads` },
  { name: 'GET /v1/replies/{id}', full: `${full}/v1/replies/${replyId}`, bare: `${base}/bare/replies/${replyId}`, limited: `${base}/limited/replies/${replyId}` },
];

/** A load run with the DB statements it caused per answered request. */
async function measure(run: () => Promise<Load>) {
  const before = services.dbStats.queries;
  const redisBefore = await real.redisRequests();
  const answered = served.n;
  const r = await run();
  await new Promise((done) => setTimeout(done, 300)); // let in-flight requests finish
  const redis = (await real.redisRequests()) - redisBefore;
  return { ...r, queries: services.dbStats.queries - before, redis, answered: served.n - answered };
}
type Measured = Awaited<ReturnType<typeof measure>>;
const combine = (a: Measured, b: Measured) => ({
  rps: (a.rps + b.rps) / 2,
  p50: (a.p50 + b.p50) / 2,
  p99: Math.max(a.p99, b.p99),
  non2xx: a.non2xx + b.non2xx,
  roundTrips: (a.queries + b.queries) / (a.answered + b.answered),
  redisTrips: (a.redis + b.redis) / (a.answered + b.answered),
});

const rows = [['path', 'variant', 'req/s', 'p50 ms', 'p99 ms', 'DB round trips/req', 'Redis round trips/req', 'non-2xx']];
const summary = [];
for (const p of paths) {
  for (let i = 0; i < keys.length; i++) await fetch(p.full, { headers: headers() }); // caches the keys, like steady-state callers
  // Warm-up: every variant's code compiled hot before it is measured.
  await load(p.bare, { seconds: 2 });
  await load(p.limited, { headers, seconds: 2 });
  await load(p.full, { headers, seconds: 2 });
  // A B C C B A: each variant runs once early and once late, so drift on a shared machine hits all alike.
  const b1 = await measure(() => load(p.bare, { seconds: SECONDS / 2 }));
  const l1 = await measure(() => load(p.limited, { headers, seconds: SECONDS / 2 }));
  const f1 = await measure(() => load(p.full, { headers, seconds: SECONDS / 2 }));
  const f2 = await measure(() => load(p.full, { headers, seconds: SECONDS / 2 }));
  const l2 = await measure(() => load(p.limited, { headers, seconds: SECONDS / 2 }));
  const b2 = await measure(() => load(p.bare, { seconds: SECONDS / 2 }));
  const b = combine(b1, b2);
  const l = combine(l1, l2);
  const f = combine(f1, f2);
  const row = (variant: string, m: typeof b) => [p.name, variant, fmt(m.rps), fmt(m.p50), fmt(m.p99), fmt(m.roundTrips, 2), fmt(m.redisTrips, 2), String(m.non2xx)];
  rows.push(row('bare route', b), row('bare route + limiter', l), row('full stack', f));
  summary.push({
    name: p.name,
    throughput: f.rps / b.rps,
    p99: f.p99 / Math.max(b.p99, 1),
    limitedThroughput: f.rps / l.rps,
    limitedP99: f.p99 / Math.max(l.p99, 1),
    limiterAlone: l.rps / b.rps,
    roundTrips: f.roundTrips,
  });
}

console.log(`\n${LEADS} leads, ${SECONDS} s per run, 10 connections, ${real.label}, ${new Date().toISOString()}\n`);
console.log(table(rows));
console.log('\nratios (full stack / bare route; targets: throughput ≥ 0.8, p99 ≤ 1.5, ≤ 1 DB round trip per read):');
for (const s of summary) {
  console.log(`  ${s.name.padEnd(24)} throughput ${fmt(s.throughput, 2)}x   p99 ${fmt(s.p99, 2)}x   DB round trips ${fmt(s.roundTrips, 2)}`);
}
console.log('ratios (full stack / bare route + limiter, the framework\'s own overhead; target: throughput ≥ 0.9):');
for (const s of summary) {
  console.log(`  ${s.name.padEnd(24)} throughput ${fmt(s.limitedThroughput, 2)}x   p99 ${fmt(s.limitedP99, 2)}x   (the limiter call alone: bare + limiter / bare = ${fmt(s.limiterAlone, 2)}x)`);
}
server.close();
bareServer.close();
await services.close();
await real.close();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
