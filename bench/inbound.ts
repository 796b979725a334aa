// `npm run bench:inbound`: replies delivered by a sending tool's webhook (POST /v1/inbound/{source_id}, generic
// format: secret check, adapter, de-duplication claim, campaign match, HTML-aware text, classification, lead, thread,
// opt-out check, event) beside the admin ingestion route (POST /admin/v1/orgs/{id}/inbound-replies: the same
// ingestion without the source, claim and campaign match) as the baseline, both through the whole HTTP stack.
// The inbound run is a retry storm: one delivery in five is sent twice at once, as a tool that timed out does.
// Afterwards the database is counted: every acknowledged message stored exactly once (0 lost, 0 doubled).
// Embedded PGlite by default; BENCH_POSTGRES_URL (and BENCH_REDIS_URL) run the production adapters.
import { serve } from '@hono/node-server';
import { randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { loadConfig } from '../lib/config';
import { createInboundSource } from '../lib/inbound/sources';
import { createCampaign, createOrg } from '../lib/orgs/admin';
import { createNodeServices } from '../lib/runtime/node';
import { createNodeApp } from '../scripts/node_server';
import { inboundMessages, replies } from '../schema';
import { benchAdapters } from './adapters';
import { fmt, table } from './lib';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef0123456789';

const dataDir = mkdtempSync(join(tmpdir(), 'ris-bench-'));
const real = await benchAdapters('inbound');
const config = loadConfig({ ...process.env, ...real.env, DATA_DIR: dataDir, LOG_LEVEL: 'error', PORT: '0', TRUST_PROXY: 'true', ADMIN_TOKEN });
const services = await createNodeServices(config);
const app = createNodeApp(services);
const server = await new Promise<{ port: number; close(): void }>((resolve) => {
  const s = serve({ fetch: (r) => app.fetch(r), hostname: '127.0.0.1', port: 0 }, (info) => resolve({ port: info.port, close: () => s.close() }));
});
const base = `http://127.0.0.1:${server.port}`;

const org = await createOrg(services.db, { name: 'bench inbound' });
const campaign = await createCampaign(services.db, org.id, { name: 'Bench campaign', provider: 'generic', provider_campaign_id: 'bench-1' }, new Date());
const { source, secret } = await createInboundSource(services.db, { orgId: org.id, provider: 'generic', baseUrl: base, now: new Date() });

const BODIES = [
  'Sounds interesting — can we talk Tuesday at 2pm?',
  'Not right now, maybe next quarter.',
  '<p>Yes please send the pricing.</p><div class="gmail_quote">On Mon, Nov 16, 2026 Sam wrote:<blockquote class="gmail_quote">Hi, we help teams…</blockquote></div>',
  'Ich bin bis 30.11. nicht im Büro.',
];
let n = 0;
const ip = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

type Outcome = { latencies: number[]; statuses: Map<number, number>; acked: Set<string>; duplicates: number; sent: number };
const newOutcome = (): Outcome => ({ latencies: [], statuses: new Map(), acked: new Set(), duplicates: 0, sent: 0 });

async function post(url: string, headers: Record<string, string>, body: string, out: Outcome) {
  const started = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip(), ...headers }, body });
  const json = (await res.json()) as { duplicate?: boolean };
  out.latencies.push(performance.now() - started);
  out.sent++;
  out.statuses.set(res.status, (out.statuses.get(res.status) ?? 0) + 1);
  return { status: res.status, duplicate: json.duplicate === true };
}

/** One inbound delivery; one in five is sent twice concurrently (a retry racing the first attempt). */
async function inboundOnce(out: Outcome) {
  const i = n++;
  const messageId = `<bench-${i}-${randomInt(1e9)}@prospect.io>`;
  const body = BODIES[i % BODIES.length];
  const payload = JSON.stringify({
    message_id: messageId,
    from_email: `p${i % 2000}@prospect${i % 50}.io`,
    from_name: 'Pat Prospect',
    subject: 'Re: Quick question',
    ...(body.startsWith('<') ? { html: body } : { text: body }),
    campaign: { id: 'bench-1', name: 'Bench campaign' },
  });
  const url = `${base}/v1/inbound/${source.id}`;
  const headers = { 'x-inbound-secret': secret };
  const tries = i % 5 === 0 ? 2 : 1;
  const answers = await Promise.all(Array.from({ length: tries }, () => post(url, headers, payload, out)));
  for (const a of answers) if (a.status === 200 && a.duplicate) out.duplicates++;
  if (answers.some((a) => a.status === 200)) out.acked.add(messageId);
}

async function adminOnce(out: Outcome) {
  const i = n++;
  const body = BODIES[i % BODIES.length].replace(/<[^>]+>/g, ' ');
  const payload = JSON.stringify({ campaign_id: campaign.id, from_email: `p${i % 2000}@prospect${i % 50}.io`, from_name: 'Pat Prospect', subject: 'Re: Quick question', body });
  await post(`${base}/admin/v1/orgs/${org.id}/inbound-replies`, { authorization: `Bearer ${ADMIN_TOKEN}` }, payload, out);
}

async function run(seconds: number, once: (out: Outcome) => Promise<void>) {
  const out = newOutcome();
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    while (performance.now() < until) await once(out);
  }));
  return { ...out, seconds: (performance.now() - started) / 1000 };
}
type Run = Awaited<ReturnType<typeof run>>;

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const summarize = (runs: Run[]) => {
  const latencies = runs.flatMap((r) => r.latencies);
  const requests = runs.reduce((s, r) => s + r.sent, 0);
  const seconds = runs.reduce((s, r) => s + r.seconds, 0);
  const non2xx = runs.reduce((s, r) => s + [...r.statuses].filter(([k]) => k < 200 || k > 299).reduce((t, [, v]) => t + v, 0), 0);
  return { rps: requests / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), requests, non2xx };
};

await run(2, adminOnce); // warm-up: JIT, the key and source caches, the classifier's tables
await run(2, inboundOnce);
// A B B A, so drift on a shared machine hits both alike.
const a1 = await run(SECONDS / 2, adminOnce);
const i1 = await run(SECONDS / 2, inboundOnce);
const i2 = await run(SECONDS / 2, inboundOnce);
const a2 = await run(SECONDS / 2, adminOnce);
const admin = summarize([a1, a2]);
const inbound = summarize([i1, i2]);

// Count what the database holds for the inbound source (warm-up included).
const acked = new Set<string>();
let duplicatesAnswered = 0;
for (const r of [i1, i2]) {
  for (const id of r.acked) acked.add(id);
  duplicatesAnswered += r.duplicates;
}
const claimed = await services.db.select({ messageId: inboundMessages.messageId, replyId: inboundMessages.replyId }).from(inboundMessages).where(eq(inboundMessages.sourceId, source.id));
const claimedIds = new Set(claimed.map((c) => c.messageId));
const lost = [...acked].filter((id) => !claimedIds.has(id)).length;
const [{ stored }] = await services.db.select({ stored: sql<number>`count(*)::int` }).from(replies).where(eq(replies.sourceId, source.id));
const doubled = Number(stored) - claimed.length;
const unlinked = claimed.filter((c) => !c.replyId).length;

console.log(`\n${SECONDS} s per variant (A B B A), ${CONNECTIONS} concurrent senders, ${real.label}, ${new Date().toISOString()}\n`);
console.log(
  table([
    ['route', 'deliveries/s', 'p50 ms', 'p99 ms', 'requests', 'non-2xx'],
    ['admin ingestion (baseline)', fmt(admin.rps), fmt(admin.p50), fmt(admin.p99), String(admin.requests), String(admin.non2xx)],
    ['POST /v1/inbound/{id} (1 in 5 sent twice)', fmt(inbound.rps), fmt(inbound.p50), fmt(inbound.p99), String(inbound.requests), String(inbound.non2xx)],
  ]),
);
console.log(`\nratios (inbound / admin baseline): throughput ${fmt(inbound.rps / admin.rps, 2)}x   p99 ${fmt(inbound.p99 / Math.max(admin.p99, 0.001), 2)}x`);
console.log(`measured runs: acknowledged messages ${acked.size}, duplicate answers ${duplicatesAnswered}; whole run (warm-up included): stored replies ${stored}, claims ${claimed.length}, lost ${lost}, doubled ${doubled}, claims without a reply ${unlinked}`);

server.close();
await services.close();
await real.close();
rmSync(dataDir, { recursive: true, force: true });
process.exit(lost === 0 && doubled === 0 && unlinked === 0 && inbound.non2xx === 0 && admin.non2xx === 0 ? 0 : 1);
