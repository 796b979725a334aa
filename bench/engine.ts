// `npm run bench:engine`: the Studio engine (issue 18). Writing: a batch of BENCH_LEADS (default 1,000) leads
// written by the offline engine (sources, playbook, rules) beside the bare template fill (renderTemplate over the same
// sequence) as the baseline, the ratio between them, and peak memory; then the same batch written through the whole
// round (writeRound in one transaction on PGlite, or PostgreSQL with BENCH_POSTGRES_URL) with its statement count.
// Pushing: helper C's benchPush() (bench/engine_push.ts), at the end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { loadConfig } from '../lib/config';
import { createClient, createOrg } from '../lib/orgs/admin';
import { createNodeServices } from '../lib/runtime/node';
import { renderTemplate } from '../lib/sequences/render';
import { offlineWriter } from '../lib/writing/offline';
import type { WriterContext, WriterLead } from '../lib/writing/port';
import { planRound, writeRound } from '../lib/writing/round';
import { batchLeads, batches, clients, poolLeads, sequenceVersions, type SequenceStep } from '../schema';
import { benchAdapters } from './adapters';
import { benchPush, printPush } from './engine_push';
import { fmt, table } from './lib';

const LEADS = Number(process.env.BENCH_LEADS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

const STEPS: SequenceStep[] = [
  { subject: 'Quick idea for {{company}}', body: 'Hi {{first_name}},\n\n{{hook}}\n\nI hope this finds you well. We help {{title}}s like you send fewer, better mails. Would a short call next week make sense?\n\n{{sender.name}}', delay_days: 0, condition: 'always' },
  { subject: null, body: 'Hi {{first_name}}, any thoughts on my last note? Happy to send a two-line summary for {{company}}. Best regards,\n{{sender.name}}', delay_days: 3, condition: 'no_reply' },
  { subject: 'Last note', body: 'Closing the loop, {{first_name}}. If the timing is wrong, just say so and I will not write again.\n\nCheers,\n{{sender.name}}', delay_days: 4, condition: 'no_positive_reply' },
];

const leadRow = (i: number) => ({
  firstName: `Name${i}`,
  lastName: `Last${i}`,
  company: `Company ${i}`,
  title: 'Head of Sales',
  hook: `Saw your team of ${10 + (i % 40)} doubled its outbound this spring. That is rare in your market.`,
  email: `p${i}@lead${i}.example.org`,
});

const ctx: WriterContext = {
  steps: STEPS,
  senderName: 'Maria',
  playbook: { version: 2, signature: 'Maria Lang, Acme Outbound' },
  agencyDocs: 'We help teams like yours send fewer, better mails.',
  rules: [
    { id: 'r-avoid', spec: { kind: 'avoid_phrase', phrase: 'I hope this finds you well' } },
    { id: 'r-replace', spec: { kind: 'replace_phrase', from: 'two-line summary', to: 'short summary' } },
    { id: 'r-sign', spec: { kind: 'sign_off', from: 'Best regards,', to: 'Cheers,' } },
  ],
};

const leads: WriterLead[] = Array.from({ length: LEADS }, (_, i) => {
  const r = leadRow(i);
  return { id: `lead-${i}`, values: { first_name: r.firstName, last_name: r.lastName, company: r.company, title: r.title, hook: r.hook, email: r.email, 'sender.name': 'Maria' } };
});

let peakRss = 0;
let peakHeap = 0;
const sample = () => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(fn: () => Promise<unknown> | unknown): Promise<number> {
  const t0 = performance.now();
  await fn();
  sample();
  return performance.now() - t0;
}

// Warm both paths once so the figures compare steady code, not the first JIT pass.
await offlineWriter.write(ctx, leads.slice(0, 50));
const bare = () => leads.map((l) => STEPS.map((s) => [s.subject === null ? null : renderTemplate(s.subject, l.values).text, renderTemplate(s.body, l.values).text]));
bare();

const engineRuns: number[] = [];
for (let r = 0; r < ROUNDS; r++) engineRuns.push(await timed(() => offlineWriter.write(ctx, leads)));
const engineMs = median(engineRuns);
const bareRuns: number[] = [];
for (let r = 0; r < ROUNDS; r++) bareRuns.push(await timed(bare));
const bareMs = median(bareRuns);
const written = await offlineWriter.write(ctx, leads);
const sentences = written.reduce((n, w) => n + w.mails.reduce((m, mail) => m + mail.sentences.length, 0), 0);
const unsourced = written.reduce((n, w) => n + w.mails.reduce((m, mail) => m + mail.sentences.filter((s) => s.source === null).length, 0), 0);

const enginePeak = { rss: peakRss, heap: peakHeap };

// The whole round through the database: the batch's leads, one transaction, bulk statements.
const adapters = await benchAdapters('engine');
const dir = mkdtempSync(join(tmpdir(), 'ris-bench-engine-'));
const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'error', ENCRYPTION_KEY: 'c'.repeat(64), HOST: '127.0.0.1', PORT: '0', CLOCK: 'wall', ...adapters.env });
const services = await createNodeServices(config);
const db = services.db;
const org = await createOrg(db, { name: 'bench-engine', features: { agency_tools: true, studio: true, crm: false } });
const client = await createClient(db, org.id, { name: 'Bench client' });
await db.insert(sequenceVersions).values({ orgId: org.id, clientId: client.id, version: 1, steps: STEPS, createdBy: 'bench' });
const pool = await db.insert(poolLeads).values(Array.from({ length: LEADS }, (_, i) => ({ orgId: org.id, clientId: client.id, status: 'in_batch' as const, ...leadRow(i) }))).returning({ id: poolLeads.id });
const [batch] = await db.insert(batches).values({ orgId: org.id, clientId: client.id, size: LEADS, createdBy: 'bench' }).returning();
await db.insert(batchLeads).values(pool.map((p, i) => ({ batchId: batch.id, poolLeadId: p.id, orgId: org.id, clientId: client.id, position: i + 1 })));
const [clientRow] = await db.select().from(clients).where(eq(clients.id, client.id));
const queriesBefore = services.dbStats.queries;
const roundMs = await timed(() =>
  db.transaction(async (tx) => {
    const plan = await planRound(tx, org.id, client.id, undefined, new Date());
    return writeRound(tx, { orgId: org.id, client: clientRow, plan, writer: offlineWriter, confirmedBy: 'bench', planStepId: null, now: new Date() });
  }),
);
const statements = services.dbStats.queries - queriesBefore;
await services.close();
rmSync(dir, { recursive: true, force: true });
await adapters.close();

const perSec = (ms: number) => (LEADS / ms) * 1000;
console.log(`\nStudio engine: writing ${LEADS} leads × ${STEPS.length} mails (${adapters.label}), median of ${ROUNDS}\n`);
console.log(
  table([
    ['path', 'ms', 'leads/s', 'vs bare fill'],
    ['bare template fill (renderTemplate)', fmt(bareMs), fmt(perSec(bareMs), 0), '1.0×'],
    ['offline engine (sources, playbook, 3 rules)', fmt(engineMs), fmt(perSec(engineMs), 0), `${fmt(engineMs / bareMs)}× the time`],
    [`whole round in one transaction (${statements} statements)`, fmt(roundMs), fmt(perSec(roundMs), 0), `${fmt(roundMs / bareMs)}× the time`],
  ]),
);
console.log(`\nsentences written: ${sentences} (${fmt(sentences / LEADS)} per lead), without a source: ${unsourced}`);
console.log(`peak memory, engine alone: RSS ${fmt(enginePeak.rss / 2 ** 20)} MiB, heap used ${fmt(enginePeak.heap / 2 ** 20)} MiB`);
console.log(`peak memory, with the database round: RSS ${fmt(peakRss / 2 ** 20)} MiB (PGlite's WebAssembly heap counts here), heap used ${fmt(peakHeap / 2 ** 20)} MiB`);

// ── Pushing (helper C's half, bench/engine_push.ts) ────────────────────────────────────────────────────────────
const push = await benchPush();
printPush(push);
if (push.lost || push.doubled || unsourced) process.exitCode = 1;
