// `npm run bench:bridge`: the table-tool bridge at the rate the spec allows a client (1,200 rows a minute) through
// the whole HTTP stack (the Node server as `npm run dev` serves it), beside a bare route measured at the same pace in
// the same run; then the import pipeline on 10,000 rows and the 20,000-entry never-mail import.
//
// "Sustained" is simulated by pacing, open loop: one request of one row every 50 ms (20 rows/s = 1,200/min, as a
// table posts one row per HTTP call), sent on schedule whether or not earlier answers are back, so a slow answer
// cannot lower the offered rate. Each request's latency is recorded. Phases A B B A (bare, bridge, bridge, bare) so
// drift on a shared machine hits both alike. Every bridge answer must be 200: a 429 at this rate would mean the
// weighted limit counts wrong. Then the batch form at the same rate: 100 rows every 5 s.
// Embedded PGlite by default; BENCH_POSTGRES_URL (and BENCH_REDIS_URL) run the production adapters.
import { serve } from '@hono/node-server';
import { randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBridgeHook } from '../lib/bridge/hooks';
import { loadConfig } from '../lib/config';
import { createClient, createOrg } from '../lib/orgs/admin';
import { createNodeServices } from '../lib/runtime/node';
import { createNodeApp } from '../scripts/node_server';
import { benchAdapters } from './adapters';
import { fmt, table } from './lib';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 40);
const INTERVAL_MS = 50; // 20 requests a second
const BATCHES = Number(process.env.BENCH_BATCHES ?? 4);

const dataDir = mkdtempSync(join(tmpdir(), 'ris-bench-'));
const real = await benchAdapters('bridge');
const config = loadConfig({ ...process.env, ...real.env, DATA_DIR: dataDir, LOG_LEVEL: 'error', PORT: '0', TRUST_PROXY: 'true' });
const services = await createNodeServices(config);
const app = createNodeApp(services);
const server = await new Promise<{ port: number; close(): void }>((resolve) => {
  const s = serve({ fetch: (r) => app.fetch(r), hostname: '127.0.0.1', port: 0 }, (info) => resolve({ port: info.port, close: () => s.close() }));
});
const base = `http://127.0.0.1:${server.port}`;

const org = await createOrg(services.db, { name: 'bench bridge', features: { studio: true } });
/** A hook of its own client per phase: each client has its own 1,200 rows a minute. */
async function newHook(name: string) {
  const client = await createClient(services.db, org.id, { name });
  const { hook, secret } = await createBridgeHook(services.db, { clientId: client.id, toolName: 'Clay', baseUrl: base, now: new Date() });
  return { url: `${base}/v1/bridge/inbound/${hook.id}`, secret };
}

let n = 0;
const row = () => {
  const i = n++;
  return { 'Work Email': `p${i}.${randomInt(1e9)}@company-${i % 3000}.com`, 'First Name': `First${i}`, 'Last Name': 'Last', 'Company Name': `Company ${i % 3000}`, 'Job Title': 'Head of Sales', Country: 'Germany', Phone: `+49 30 ${100_000 + i}` };
};

type Outcome = { latencies: number[]; statuses: Map<number, number> };

async function timed(url: string, init: RequestInit, out: Outcome) {
  const started = performance.now();
  const res = await fetch(url, init);
  await res.arrayBuffer();
  out.latencies.push(performance.now() - started);
  out.statuses.set(res.status, (out.statuses.get(res.status) ?? 0) + 1);
}

/** Open loop: request k leaves at start + k × interval, whatever the earlier ones are doing. */
async function paced(seconds: number, intervalMs: number, send: (out: Outcome) => Promise<void>) {
  const out: Outcome = { latencies: [], statuses: new Map() };
  const count = Math.floor((seconds * 1000) / intervalMs);
  const start = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let k = 0; k < count; k++) {
    const wait = start + k * intervalMs - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(send(out));
  }
  await Promise.all(inFlight);
  return out;
}

const bare = (out: Outcome) => timed(`${base}/healthz`, { headers: { 'x-forwarded-for': '10.9.9.9' } }, out);
const bridgeOne = (hook: { url: string; secret: string }) => (out: Outcome) =>
  timed(hook.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-bridge-secret': hook.secret }, body: JSON.stringify(row()) }, out);

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const summarize = (runs: Outcome[]) => {
  const latencies = runs.flatMap((r) => r.latencies);
  const non2xx = runs.reduce((s, r) => s + [...r.statuses].filter(([k]) => k < 200 || k > 299).reduce((t, [, v]) => t + v, 0), 0);
  const statuses = [...new Map(runs.flatMap((r) => [...r.statuses])).keys()];
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), requests: latencies.length, non2xx, statuses };
};

// Warm-up on a client of its own: JIT, the hook lookup, the pool's indexes.
const warm = await newHook('warm-up');
await paced(2, INTERVAL_MS, bridgeOne(warm));
await paced(1, INTERVAL_MS, bare);

const phase = SECONDS / 4;
const hookB1 = await newHook('sustained 1');
const a1 = await paced(phase, INTERVAL_MS, bare);
const b1 = await paced(phase, INTERVAL_MS, bridgeOne(hookB1));
// The second bridge phase keeps the same client: together a sustained run at 1,200 rows a minute.
const b2 = await paced(phase, INTERVAL_MS, bridgeOne(hookB1));
const a2 = await paced(phase, INTERVAL_MS, bare);
const baseline = summarize([a1, a2]);
const bridge = summarize([b1, b2]);

// The batch form at the same rate: 100 rows every 5 s.
const hookBatch = await newHook('batches');
const batch = await paced(BATCHES * 5, 5_000, (out) =>
  timed(hookBatch.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-bridge-secret': hookBatch.secret }, body: JSON.stringify({ rows: Array.from({ length: 100 }, row) }) }, out),
);
const batches = summarize([batch]);

console.log(`\n${SECONDS} s paced at ${1000 / INTERVAL_MS} requests/s (A B B A), ${real.label}, ${new Date().toISOString()}\n`);
console.log(
  table([
    ['route (20 requests/s, open loop)', 'p50 ms', 'p99 ms', 'requests', 'non-2xx'],
    ['GET /healthz (bare route, baseline)', fmt(baseline.p50), fmt(baseline.p99), String(baseline.requests), String(baseline.non2xx)],
    ['POST /v1/bridge/inbound/{id}, 1 row (1,200 rows/min)', fmt(bridge.p50), fmt(bridge.p99), String(bridge.requests), String(bridge.non2xx)],
    ['POST /v1/bridge/inbound/{id}, 100 rows every 5 s', fmt(batches.p50), fmt(batches.p99), String(batches.requests), String(batches.non2xx)],
  ]),
);
console.log(`\nratios (bridge / bare route): p50 ${fmt(bridge.p50 / Math.max(baseline.p50, 0.001), 2)}x   p99 ${fmt(bridge.p99 / Math.max(baseline.p99, 0.001), 2)}x`);
console.log(`rows imported at the sustained rate: ${bridge.requests} in ${fmt((2 * phase) / 60, 2)} min, statuses ${bridge.statuses.join(', ')} (any 429 would be a limit counting wrong)`);

server.close();
await services.close();
await real.close();
rmSync(dataDir, { recursive: true, force: true });

// The pool benchmarks of the same issue, when present: the import pipeline and the never-mail import (PGlite).
let poolFailed = false;
async function poolBench(file: string, run: () => Promise<string>) {
  if (!existsSync(new URL(file, import.meta.url))) return;
  try {
    console.log('\n' + (await run()));
  } catch (err) {
    poolFailed = true;
    console.log(`\n${file} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}
await poolBench('./import_pipeline.ts', async () => {
  const { benchImportPipeline, formatImportPipeline } = await import('./import_pipeline');
  return formatImportPipeline(await benchImportPipeline());
});
await poolBench('./suppression_import.ts', async () => {
  const { benchSuppressionImport, formatSuppressionImport } = await import('./suppression_import');
  return formatSuppressionImport(await benchSuppressionImport());
});
process.exit(bridge.non2xx === 0 && batches.non2xx === 0 && baseline.non2xx === 0 && !poolFailed ? 0 : 1);
