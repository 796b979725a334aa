// A real service process for the plan crash proof: `node --import tsx test/runtime/plan_crash_child.ts`, configured
// like `npm run dev` (DATA_DIR → persistent PGlite), serving every group and running the embedded job runner, plus
// one test-only step kind registered here and nowhere else: `test.slow_effect`, whose effect is one row keyed by
// the step id (idempotent, like a credit charge with the step id as its reference). Leases are short so a killed
// process's steps are taken over within seconds. Prints {"port":n}, then a progress line every 200 ms and a final
// {"report":…} once no step is left to run.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { jobHandlers, jobSchedule } from '../../functions/jobs/handlers';
import { loadConfig } from '../../lib/config';
import { rows } from '../../lib/db/types';
import { createClient } from '../../lib/orgs/admin';
import { createOrg } from '../../lib/orgs/orgs';
import { setStepLeaseMs } from '../../lib/plans/execute';
import { registerStepKind } from '../../lib/plans/registry';
import { scheduleSteps } from '../../lib/plans/schedule';
import { startJobRunner } from '../../lib/queue/runner';
import { createNodeServices } from '../../lib/runtime/node';
import { planSteps, plans } from '../../schema';
import { serveNode } from '../../scripts/node_server';

const leaseMs = Number(process.env.PLAN_CRASH_LEASE_MS ?? 2_000);
const beforeMs = Number(process.env.PLAN_CRASH_BEFORE_MS ?? 200);
const afterMs = Number(process.env.PLAN_CRASH_AFTER_MS ?? 800);
const seed = Number(process.env.PLAN_CRASH_SEED ?? 0);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const config = loadConfig(process.env);
const services = await createNodeServices(config);
const { db } = services;
await db.execute(sql`create table if not exists test_step_runs (step_id uuid not null, pid int not null, at timestamptz not null default clock_timestamp())`);
await db.execute(sql`create table if not exists test_step_effects (step_id uuid primary key, pid int not null, at timestamptz not null default clock_timestamp())`);
// One row per effect actually applied (no constraint): two rows for one step would be a doubled effect.
await db.execute(sql`create table if not exists test_step_applied (step_id uuid not null, pid int not null)`);

registerStepKind({
  kind: 'test.slow_effect',
  summary: () => 'a slow step with one effect',
  params: z.object({}).strict(),
  buys: false,
  undoable: false,
  credits: () => 0,
  dryRun: async () => [],
  run: async (ctx) => {
    await db.execute(sql`insert into test_step_runs (step_id, pid) values (${ctx.stepId}::uuid, ${process.pid})`);
    await sleep(beforeMs);
    // The effect and its proof commit together; a repeat finds the step id's row and applies nothing.
    const applied = await db.transaction(async (tx) => {
      const r = await rows(tx, sql`insert into test_step_effects (step_id, pid) values (${ctx.stepId}::uuid, ${process.pid}) on conflict (step_id) do nothing returning step_id`);
      if (r.length > 0) await tx.execute(sql`insert into test_step_applied (step_id, pid) values (${ctx.stepId}::uuid, ${process.pid})`);
      return r.length > 0;
    });
    await sleep(afterMs); // the window where the effect exists but the step is not yet marked done
    return { applied };
  },
});
setStepLeaseMs(leaseMs);

if (seed > 0 && (await db.select({ id: plans.id }).from(plans).limit(1)).length === 0) {
  const now = services.clock.now();
  const org = await createOrg(db, { name: 'plan crash' });
  const client = await createClient(db, org.id, { name: 'crash client' });
  const [plan] = await db.insert(plans).values({ orgId: org.id, clientId: client.id, title: 'crash plan', status: 'approved', approvalScope: 'all', approvedAt: now, approvedBy: 'test', createdBy: 'test' }).returning();
  await db.transaction(async (tx) => {
    const steps = await tx
      .insert(planSteps)
      .values(Array.from({ length: seed }, (_, i) => ({ planId: plan.id, orgId: org.id, clientId: client.id, position: i, kind: 'test.slow_effect', status: 'approved' as const, undoable: false, createdBy: 'test' })))
      .returning({ id: planSteps.id });
    await scheduleSteps(tx, services, steps.map((s) => ({ id: s.id, dueAt: now })));
  });
}

const server = await serveNode(services, config.HOST, config.PORT);
startJobRunner(services, jobHandlers, { ...jobSchedule, leaseMs, concurrency: 4 });
process.stdout.write(`${JSON.stringify({ port: server.port })}\n`);

async function counts() {
  const [c] = await rows<Record<string, number | string>>(
    db,
    sql`select
      (select count(*) from plan_steps) as steps,
      (select count(*) from plan_steps where status = 'done') as done,
      (select count(*) from plan_steps where status in ('waiting', 'approved', 'scheduled', 'running')) as open,
      (select count(*) from test_step_runs) as runs,
      (select count(*) from (select step_id from test_step_runs group by step_id having count(*) > 1) x) as rerun_steps,
      (select count(*) from test_step_effects) as effects,
      (select count(*) from test_step_applied) as applied,
      (select count(*) from (select step_id from test_step_applied group by step_id having count(*) > 1) x) as doubled,
      (select count(*) from plan_steps s where not exists (select 1 from test_step_effects e where e.step_id = s.id)) as lost,
      (select count(*) from test_step_effects e where exists (select 1 from test_step_runs r where r.step_id = e.step_id and r.at > e.at)) as rerun_after_effect,
      (select status from plans limit 1) as plan_status`,
  );
  return Object.fromEntries(Object.entries(c).map(([k, v]) => [k, k === 'plan_status' ? v : Number(v)]));
}

for (;;) {
  await sleep(200);
  const c = await counts().catch(() => null);
  if (!c) continue;
  if (Number(c.steps) > 0 && c.open === 0) {
    process.stdout.write(`${JSON.stringify({ report: c })}\n`);
    break;
  }
  process.stdout.write(`${JSON.stringify({ progress: c })}\n`);
}
