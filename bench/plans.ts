// `npm run bench:plans`: PLANS plans × 5 steps, all falling due in the same minute (a burst at one moment, the hard
// case), run by the embedded scheduler (jobs rows, the background runner) and through the QStash emulator (the real
// Client publishing after each approval's commit, deliveries to our /jobs/run checked by the real Receiver).
// Beside each: the same scheduler's own throughput for as many no-op jobs due at the same moment, as the baseline
// measured in the same run. Prints steps/s, lateness p50/p99 (run start − due time) and the lost and doubled counts.
// BENCH_PLANS (default 1000) scales it; BENCH_POSTGRES_URL runs it on PostgreSQL through the Neon driver.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { jobHandlers, jobSchedule } from '../functions/jobs/handlers';
import { loadConfig } from '../lib/config';
import { createOrg } from '../lib/orgs/orgs';
import { registerStepKind } from '../lib/plans/registry';
import { publishScheduledSteps, scheduleSteps } from '../lib/plans/schedule';
import type { JobHandler, JobInput } from '../lib/queue/port';
import { startJobRunner } from '../lib/queue/runner';
import { createNodeServices, type NodeServices } from '../lib/runtime/node';
import { clients, planSteps, plans } from '../schema';
import { serveNode } from '../scripts/node_server';
import { startQStashEmulator } from '../test/infra/qstash_emulator';
import { benchAdapters } from './adapters';
import { fmt, table } from './lib';

const PLANS = Number(process.env.BENCH_PLANS ?? 1000);
const STEPS_PER_PLAN = 5;
const TOTAL = PLANS * STEPS_PER_PLAN;

// The step kind and the no-op job exist only in this process.
const runsByStep = new Map<string, number>();
const lateness: number[] = [];
/** When the current round's steps fall due (set once they are seeded, just before the approvals). */
let stepsDue = 0;
registerStepKind({
  kind: 'bench.mark',
  summary: () => 'bench step',
  params: z.object({}).strict(),
  buys: false,
  undoable: true,
  credits: () => 0,
  dryRun: async () => [],
  run: async (ctx) => {
    runsByStep.set(ctx.stepId, (runsByStep.get(ctx.stepId) ?? 0) + 1);
    lateness.push(Date.now() - stepsDue);
    return {};
  },
});
const noopRuns = new Map<number, number>();
const noopLateness: number[] = [];
const NOOP_JOB = 'bench.noop';
(jobHandlers as Record<string, JobHandler>)[NOOP_JOB] = async (payload) => {
  const { i, due } = payload as { i: number; due: number };
  noopRuns.set(i, (noopRuns.get(i) ?? 0) + 1);
  noopLateness.push(Date.now() - due);
};

const adapters = await benchAdapters('plans');

async function open(env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'ris-bench-plans-'));
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'error', ENCRYPTION_KEY: 'c'.repeat(64), HOST: '127.0.0.1', PORT: '0', CLOCK: 'wall', ...adapters.env, ...env });
  const services = await createNodeServices(config);
  return { services, cleanup: async () => (await services.close(), rmSync(dir, { recursive: true, force: true })) };
}

/** PLANS approved plans, one client each (a client has one open plan), steps not yet scheduled. */
async function seed(services: NodeServices) {
  const org = await createOrg(services.db, { name: 'bench plans' });
  const plansOut: { id: string; steps: string[] }[] = [];
  for (let i = 0; i < PLANS; i += 200) {
    const n = Math.min(200, PLANS - i);
    const cs = await services.db.insert(clients).values(Array.from({ length: n }, (_, j) => ({ orgId: org.id, name: `bench client ${i + j}`, portal: { show_hot: true, show_warm: true, show_cold: true, show_not_interested: false } }))).returning({ id: clients.id });
    const ps = await services.db
      .insert(plans)
      .values(cs.map((c) => ({ orgId: org.id, clientId: c.id, title: 'bench', status: 'approved' as const, approvalScope: 'all' as const, approvedAt: new Date(), approvedBy: 'bench', createdBy: 'bench' })))
      .returning({ id: plans.id, clientId: plans.clientId });
    const steps = await services.db
      .insert(planSteps)
      .values(ps.flatMap((p) => Array.from({ length: STEPS_PER_PLAN }, (_, k) => ({ planId: p.id, orgId: org.id, clientId: p.clientId, position: k, kind: 'bench.mark', params: {}, status: 'approved' as const, createdBy: 'bench' }))))
      .returning({ id: planSteps.id, planId: planSteps.planId });
    for (const p of ps) plansOut.push({ id: p.id, steps: steps.filter((s) => s.planId === p.id).map((s) => s.id) });
  }
  return plansOut;
}

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function waitUntil(check: () => Promise<boolean> | boolean, limitMs: number) {
  const end = Date.now() + limitMs;
  while (!(await check()) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
}

const doneCount = async (services: NodeServices) => Number((((await services.db.execute(sql`select count(*) as n from plan_steps where status = 'done'`)) as unknown as { rows: { n: string | number }[] }).rows[0].n));

type Result = { seconds: number; perSecond: number; p50: number; p99: number; lost: number; doubled: number; extra?: string };

function stepResult(due: number, finished: number, done: number): Result {
  const seconds = (finished - due) / 1000;
  let doubled = 0;
  for (const n of runsByStep.values()) if (n > 1) doubled++;
  return { seconds, perSecond: TOTAL / seconds, p50: pct(lateness, 50), p99: pct(lateness, 99), lost: TOTAL - Math.min(runsByStep.size, done), doubled };
}

function noopResult(due: number, finished: number, total: number): Result {
  const seconds = (finished - due) / 1000;
  let doubled = 0;
  for (const n of noopRuns.values()) if (n > 1) doubled++;
  return { seconds, perSecond: total / seconds, p50: pct(noopLateness, 50), p99: pct(noopLateness, 99), lost: total - noopRuns.size, doubled };
}

const reset = () => (runsByStep.clear(), (lateness.length = 0), noopRuns.clear(), (noopLateness.length = 0));
const noopJobs = (due: number): JobInput[] => Array.from({ length: TOTAL }, (_, i) => ({ kind: NOOP_JOB, payload: { i, due }, runAt: new Date(due), dedupeKey: `bench-noop:${due}:${i}` }));

async function embedded(): Promise<{ steps: Result; noop: Result }> {
  const { services, cleanup } = await open({});
  // Baseline: TOTAL no-op jobs due at one moment, on the same runner settings.
  reset();
  let due = Date.now() + 3_000;
  for (let i = 0; i < TOTAL; i += 1000) await services.queue.enqueue(noopJobs(due).slice(i, i + 1000));
  let runner = startJobRunner(services, jobHandlers, jobSchedule);
  await waitUntil(() => noopRuns.size >= TOTAL, 600_000);
  const noop = noopResult(due, Date.now(), TOTAL);
  await runner.stop();

  // Steps: every plan approved in its own transaction (scheduleSteps writes the jobs with it), all due at one moment.
  reset();
  const seeded = await seed(services);
  const scheduleStarted = Date.now();
  due = stepsDue = scheduleStarted + Math.max(3_000, PLANS * 8);
  for (const p of seeded) await services.db.transaction((tx) => scheduleSteps(tx, services, p.steps.map((id) => ({ id, dueAt: new Date(due) }))));
  const scheduleSeconds = (Date.now() - scheduleStarted) / 1000;
  if (Date.now() > due) console.warn(`approving took longer than the lead time (${fmt(scheduleSeconds)} s): lateness includes it`);
  runner = startJobRunner(services, jobHandlers, jobSchedule);
  await waitUntil(async () => runsByStep.size >= TOTAL && (await doneCount(services)) >= TOTAL, 600_000);
  const steps = stepResult(due, Date.now(), await doneCount(services));
  await runner.stop();
  await cleanup();
  return { steps: { ...steps, extra: `approve ${PLANS} plans ${fmt(scheduleSeconds)} s` }, noop };
}

async function qstash(): Promise<{ steps: Result; noop: Result; messages: number; deduplicated: number }> {
  const emu = await startQStashEmulator({ retryDelayMs: 200 });
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const port = (probe.address() as { port: number }).port;
  await new Promise((done) => probe.close(done));
  const { services, cleanup } = await open({
    QSTASH_URL: emu.url,
    QSTASH_TOKEN: emu.token,
    QSTASH_CURRENT_SIGNING_KEY: emu.currentSigningKey,
    QSTASH_NEXT_SIGNING_KEY: emu.nextSigningKey,
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
  });
  const server = await serveNode(services, '127.0.0.1', port);

  reset();
  let due = Date.now() + 20_000;
  await services.queue.enqueue(noopJobs(due));
  await waitUntil(() => noopRuns.size >= TOTAL, 600_000);
  const noop = noopResult(due, Date.now(), TOTAL);
  await emu.drain();
  const noopMessages = emu.published.length;

  // Steps: each approval commits, then publishes (the production path); the sweep runs as it would (every minute).
  reset();
  const seeded = await seed(services);
  const started = Date.now();
  due = stepsDue = started + Math.max(5_000, PLANS * 16);
  for (const p of seeded) {
    const steps = p.steps.map((id) => ({ id, dueAt: new Date(due) }));
    await services.db.transaction((tx) => scheduleSteps(tx, services, steps));
    await publishScheduledSteps(services, steps);
  }
  const scheduleSeconds = (Date.now() - started) / 1000;
  if (Date.now() > due) console.warn(`approving and publishing took longer than the lead time (${fmt(scheduleSeconds)} s): lateness includes it`);
  // A second publish of every step (a retried approval, the sweep): QStash's deduplication keeps one delivery each.
  const before = emu.published.length;
  for (const p of seeded) await publishScheduledSteps(services, p.steps.map((id) => ({ id, dueAt: new Date(due) })));
  const deduplicated = TOTAL - (emu.published.length - before);
  const runner = startJobRunner(services, jobHandlers, jobSchedule); // periodic kinds only (the sweep) on QStash
  await waitUntil(async () => runsByStep.size >= TOTAL && (await doneCount(services)) >= TOTAL, 600_000);
  const steps = stepResult(due, Date.now(), await doneCount(services));
  await runner.stop();
  await emu.drain();
  const messages = emu.published.slice(noopMessages).filter((m) => JSON.parse(m.body).kind === 'plan.step').length;
  (server as Server).closeAllConnections();
  server.close();
  await emu.close();
  await cleanup();
  return { steps: { ...steps, extra: `approve and publish ${PLANS} plans ${fmt(scheduleSeconds)} s` }, noop, messages, deduplicated };
}

const db = adapters.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
console.log(`plans benchmark: ${PLANS} plans × ${STEPS_PER_PLAN} steps = ${TOTAL} steps due at one moment, ${adapters.label} (Node ${process.version}, ${new Date().toISOString()})\n`);
const emb = await embedded();
const qs = await qstash();
await adapters.close();

const row = (name: string, r: Result, base: Result) => [name, fmt(r.seconds, 2), fmt(r.perSecond, 0), fmt(r.perSecond / base.perSecond, 2), fmt(r.p50, 0), fmt(r.p99, 0), String(r.lost), String(r.doubled)];
console.log(
  table([
    ['path', 'seconds', 'per second', 'vs baseline', 'lateness p50 ms', 'lateness p99 ms', 'lost', 'doubled'],
    row(`baseline: embedded scheduler, ${TOTAL} no-op jobs (${db})`, emb.noop, emb.noop),
    row(`plan steps, embedded scheduler (${db} jobs rows)`, emb.steps, emb.noop),
    row(`baseline: QStash emulator, ${TOTAL} no-op jobs`, qs.noop, qs.noop),
    row(`plan steps, QStash emulator (${qs.messages} step messages, ${qs.deduplicated} repeats deduplicated)`, qs.steps, qs.noop),
  ]),
);
console.log(`\n${emb.steps.extra}; ${qs.steps.extra}`);
console.log('A no-op job has no idempotency of its own: its "doubled" counts the queue delivering it again (QStash retries a delivery that timed out under load). Steps under the same redeliveries run once: the lease.');
const lost = emb.steps.lost + qs.steps.lost + emb.noop.lost + qs.noop.lost;
const doubled = emb.steps.doubled + qs.steps.doubled;
console.log(`lost steps: ${emb.steps.lost + qs.steps.lost}${lost === 0 ? '' : '  ← MUST BE 0'}; doubled steps: ${doubled}${doubled === 0 ? '' : '  ← MUST BE 0'}`);
process.exit(lost === 0 && doubled === 0 ? 0 : 1);
