// `npm run bench:soak`: a fixed request rate across the core read and write endpoints for SOAK_SECONDS (default
// 300), RSS sampled every 10 s. After a one-minute warm-up the RSS must not grow more than 10 %.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { loadConfig } from '../lib/config';
import { createNodeServices } from '../lib/runtime/node';
import { serveNode } from '../scripts/node_server';
import { seedLeads } from './seed';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 300);
const RATE = Number(process.env.SOAK_RATE ?? 100);
const WARMUP = Math.min(60, Math.floor(SECONDS / 5));

const dataDir = mkdtempSync(join(tmpdir(), 'ris-soak-'));
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'error', PORT: '0', TRUST_PROXY: 'true' });
const services = await createNodeServices(config);
const { keys, replyId } = await seedLeads(services.db, 2_000);
const server = await serveNode(services, '127.0.0.1', 0);
const base = `http://127.0.0.1:${server.port}`;

let n = 0;
const next = () => {
  n++;
  return { 'x-service-key': keys[n % keys.length], 'x-forwarded-for': `10.9.${(n >> 8) & 255}.${n & 255}`, 'content-type': 'application/json' };
};
const classifications = ['hot', 'warm', 'cold'];
const requests = [
  { method: 'GET', path: '/v1/leads?limit=50' },
  { method: 'GET', path: `/v1/replies/${replyId}` },
  { method: 'GET', path: '/v1/campaigns' },
  { method: 'GET', path: '/v1/me' },
  { method: 'PATCH', path: `/v1/leads/${replyId}` },
].map((r) => ({
  ...r,
  setupRequest: (req: Record<string, unknown>) => ({
    ...req,
    headers: next(),
    body: r.method === 'PATCH' ? JSON.stringify({ classification: classifications[n % 3] }) : undefined,
  }),
}));

const samples: { t: number; rssMb: number }[] = [];
const started = Date.now();
const sampler = setInterval(() => samples.push({ t: Math.round((Date.now() - started) / 1000), rssMb: process.memoryUsage().rss / 1e6 }), 10_000);
const result = await autocannon({ url: base, requests: requests as never, duration: SECONDS, connections: 10, overallRate: RATE });
clearInterval(sampler);
samples.push({ t: Math.round((Date.now() - started) / 1000), rssMb: process.memoryUsage().rss / 1e6 });

const afterWarmup = samples.filter((s) => s.t >= WARMUP);
const first = afterWarmup[0]?.rssMb ?? samples[0].rssMb;
const last = samples[samples.length - 1].rssMb;
const growth = (last - first) / first;
console.log(`soak: ${SECONDS} s at ${RATE} req/s, ${result.requests.total} requests, ${result.non2xx} non-2xx, ${result.errors} errors, p99 ${result.latency.p99} ms`);
console.log('RSS (MB) every 10 s:', samples.map((s) => `${s.t}s=${s.rssMb.toFixed(0)}`).join(' '));
console.log(`RSS after warm-up (${WARMUP} s): ${first.toFixed(1)} MB → ${last.toFixed(1)} MB, growth ${(growth * 100).toFixed(1)} % (limit 10 %) ${growth <= 0.1 ? 'OK' : 'EXCEEDED'}`);
server.close();
await services.close();
rmSync(dataDir, { recursive: true, force: true });
process.exit(growth <= 0.1 && result.non2xx === 0 ? 0 : 1);
