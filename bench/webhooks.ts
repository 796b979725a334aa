// `npm run bench:webhooks`: 1,000 committed events × 10 local receivers, from outbox to 2xx, on the embedded
// scheduler (jobs rows in the database) and through QStash (the real Client and Receiver against the local
// emulator), beside a plain loop POSTing the same bodies to the same receivers in the same run. Prints deliveries
// per second, the ratio to the baseline, DB and Redis round trips per delivery, and how many (event, endpoint)
// pairs were lost (must be 0). Embedded PGlite by default; with BENCH_POSTGRES_URL / BENCH_REDIS_URL both paths
// run on the production adapters (see bench/adapters.ts).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count, eq } from 'drizzle-orm';
import { webhookDeliveries } from '../schema';
import type { AuthContext } from '../lib/auth/keys';
import { loadConfig } from '../lib/config';
import { emitEvent } from '../lib/events/outbox';
import { createCampaign, createOrg } from '../lib/orgs/admin';
import { forEachLimit } from '../lib/queue/run';
import { startJobRunner } from '../lib/queue/runner';
import { createNodeServices, type NodeServices } from '../lib/runtime/node';
import { serveNode } from '../scripts/node_server';
import { DISPATCH_JOB } from '../lib/webhooks/jobs';
import { createWebhook } from '../lib/webhooks/manage';
import { jobSchedule, jobHandlers } from '../functions/jobs/handlers';
import { startQStashEmulator } from '../test/infra/qstash_emulator';
import { benchAdapters } from './adapters';
import { fmt, table } from './lib';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000);
const ENDPOINTS = 10;
const TOTAL = EVENTS * ENDPOINTS;
/** In flight at once in the baseline: what the embedded runner allows (4 jobs × 25 attempts). */
const BASELINE_CONCURRENCY = 100;

type Receivers = { urls: string[]; pairs: Set<string>; requests: number; reset(): void; close(): Promise<void> };

async function startReceivers(): Promise<Receivers> {
  const servers: Server[] = [];
  const r: Receivers = {
    urls: [],
    pairs: new Set(),
    requests: 0,
    reset: () => {
      r.pairs.clear();
      r.requests = 0;
    },
    close: async () => {
      for (const s of servers) {
        s.closeAllConnections();
        await new Promise((done) => s.close(done));
      }
    },
  };
  for (let i = 0; i < ENDPOINTS; i++) {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        r.requests++;
        r.pairs.add(`${i}|${req.headers['x-service-event-id']}`);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    servers.push(server);
    r.urls.push(`http://127.0.0.1:${(server.address() as { port: number }).port}/hook`);
  }
  return r;
}

const eventData = (i: number) => ({ reply_id: randomUUID(), lead_id: randomUUID(), from_email: `p${i}@prospect.com`, classification: 'warm', reply_text: 'Thanks for reaching out. '.repeat(8) });

async function baseline(rx: Receivers) {
  const bodies = Array.from({ length: EVENTS }, (_, i) => {
    const id = `evt_base_${i}`;
    return { id, body: JSON.stringify({ id, event: 'lead.replied', created_at: new Date().toISOString(), data: eventData(i) }) };
  });
  const work = bodies.flatMap((b) => rx.urls.map((url) => ({ url, ...b })));
  rx.reset();
  const started = performance.now();
  await forEachLimit(work, BASELINE_CONCURRENCY, async (w) => {
    const res = await fetch(w.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-event-id': w.id }, body: w.body });
    await res.arrayBuffer();
  });
  return { seconds: (performance.now() - started) / 1000, lost: TOTAL - rx.pairs.size };
}

const adapters = await benchAdapters('webhooks');

/** A database (fresh PGlite, or the run's PostgreSQL database) with a new organization, 10 webhooks and EVENTS committed, undispatched events. */
async function seeded(env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'ris-bench-wh-'));
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'error', ENCRYPTION_KEY: 'c'.repeat(64), ALLOW_PRIVATE_WEBHOOK_URLS: 'true', HOST: '127.0.0.1', PORT: '0', ...adapters.env, ...env });
  const services = await createNodeServices(config);
  const now = services.clock.now();
  const org = await createOrg(services.db, { name: 'bench' });
  await createCampaign(services.db, org.id, { name: 'bench' }, now);
  const auth = { orgId: org.id, clientId: null, keyName: 'bench' } as AuthContext;
  return {
    services,
    orgId: org.id,
    cleanup: async () => {
      await services.close();
      rmSync(dir, { recursive: true, force: true });
    },
    async addWebhooksAndEvents(urls: string[]) {
      for (const url of urls) await createWebhook({ services, auth, input: { name: 'bench', url, events: ['lead.replied'] }, now });
      for (let i = 0; i < EVENTS; i += 250) {
        await services.db.transaction(async (tx) => {
          for (let j = i; j < Math.min(i + 250, EVENTS); j++) await emitEvent(tx, { orgId: org.id, kind: 'lead.replied', data: eventData(j), at: now });
        });
      }
    },
  };
}

async function untilDelivered(rx: Receivers, services: NodeServices, orgId: string, limitMs = 180_000) {
  const started = performance.now();
  const queries = services.dbStats.queries;
  const redis = await adapters.redisRequests();
  while (rx.pairs.size < TOTAL && performance.now() - started < limitMs) await new Promise((r) => setTimeout(r, 20));
  const seconds = (performance.now() - started) / 1000;
  const trips = { db: (services.dbStats.queries - queries) / TOTAL, redis: ((await adapters.redisRequests()) - redis) / TOTAL };
  const [{ n }] = await services.db
    .select({ n: count() })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.orgId, orgId));
  return { seconds, lost: TOTAL - rx.pairs.size, rows: n, duplicates: rx.requests - rx.pairs.size, ...trips };
}

async function embedded(rx: Receivers) {
  const s = await seeded({});
  await s.addWebhooksAndEvents(rx.urls);
  rx.reset();
  const runner = startJobRunner(s.services, jobHandlers, jobSchedule);
  const r = await untilDelivered(rx, s.services, s.orgId);
  await runner.stop();
  await s.cleanup();
  return r;
}

async function qstash(rx: Receivers) {
  const emu = await startQStashEmulator();
  // Our own server must be listening before the configuration can name its public address.
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const port = (probe.address() as { port: number }).port;
  await new Promise((done) => probe.close(done));
  const s = await seeded({
    QSTASH_URL: emu.url,
    QSTASH_TOKEN: emu.token,
    QSTASH_CURRENT_SIGNING_KEY: emu.currentSigningKey,
    QSTASH_NEXT_SIGNING_KEY: emu.nextSigningKey,
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
  });
  const server = await serveNode(s.services, '127.0.0.1', port);
  await s.addWebhooksAndEvents(rx.urls);
  rx.reset();
  const started = performance.now();
  await s.services.queue.poke(DISPATCH_JOB);
  const r = await untilDelivered(rx, s.services, s.orgId);
  r.seconds = (performance.now() - started) / 1000;
  const messages = emu.published.length;
  await emu.drain();
  (server as Server).closeAllConnections();
  server.close();
  await emu.close();
  await s.cleanup();
  return { ...r, messages };
}

const rx = await startReceivers();
console.log(`webhooks benchmark: ${EVENTS} events × ${ENDPOINTS} receivers = ${TOTAL} deliveries, ${adapters.label} (Node ${process.version}, ${new Date().toISOString()})\n`);
const base = await baseline(rx);
const emb = await embedded(rx);
const qs = await qstash(rx);
await rx.close();
await adapters.close();
const db = adapters.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';

const rate = (seconds: number) => TOTAL / seconds;
console.log(
  table([
    ['path', 'seconds', 'deliveries/s', 'vs baseline', 'DB round trips/delivery', 'Redis round trips/delivery', 'lost', 'duplicates'],
    [`plain fetch loop (${BASELINE_CONCURRENCY} in flight, no DB, unsigned)`, fmt(base.seconds, 2), fmt(rate(base.seconds), 0), '1.00', '0', '0', String(base.lost), '-'],
    [`embedded scheduler (${db} jobs rows, signed)`, fmt(emb.seconds, 2), fmt(rate(emb.seconds), 0), fmt(rate(emb.seconds) / rate(base.seconds), 2), fmt(emb.db, 2), fmt(emb.redis, 2), String(emb.lost), String(emb.duplicates)],
    [`QStash emulator (${qs.messages} messages, ${db}, signed)`, fmt(qs.seconds, 2), fmt(rate(qs.seconds), 0), fmt(rate(qs.seconds) / rate(base.seconds), 2), fmt(qs.db, 2), fmt(qs.redis, 2), String(qs.lost), String(qs.duplicates)],
  ]),
);
const lost = base.lost + emb.lost + qs.lost;
console.log(`\nlost (event, endpoint) pairs: ${lost}${lost === 0 ? '' : '  ← MUST BE 0'}`);
process.exit(lost === 0 ? 0 : 1);
