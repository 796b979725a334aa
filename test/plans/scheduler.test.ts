// The scheduler: due times (08:00 in the organization's zone), steps on the embedded queue exactly once, leases,
// bounded retries, the plan's end, plan_log and audit rows, pause, the sweep, and the runner picking a due step up.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, jobs, planLog, planSteps, plans } from '../../schema';
import { jobHandlers, jobSchedule } from '../../functions/jobs/handlers';
import { executeStep, MAX_STEP_ATTEMPTS, retryDelayMs, setStepLeaseMs, stepLeaseMs, stepRow } from '../../lib/plans/execute';
import { PLAN_STEP_JOB, PLAN_SWEEP_JOB, sweepSteps } from '../../lib/plans/jobs';
import { dueAtFor, scheduleSteps, unscheduleSteps } from '../../lib/plans/schedule';
import { drainJobs, startJobRunner } from '../../lib/queue/runner';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant, type Tenant } from '../helpers/tenant';
import { registerTestKinds, runsOf, seedPlan } from './scheduler_helpers';

let env: TestEnv;
beforeAll(async () => {
  registerTestKinds();
  env = await startTestEnv();
});
afterAll(() => env.close());

const drain = () => drainJobs(env.services, jobHandlers, { everyTick: jobSchedule.everyTick });
const db = () => env.services.db;
const planOf = async (id: string) => (await db().select().from(plans).where(eq(plans.id, id)))[0];

async function approve(t: Tenant, steps: Parameters<typeof seedPlan>[2], dueInMs = 0) {
  const now = env.clock.now();
  const seeded = await seedPlan(db(), t.org.id, steps, { now });
  await db().transaction((tx) => scheduleSteps(tx, env.services, seeded.stepIds.map((id) => ({ id, dueAt: new Date(now.getTime() + dueInMs) }))));
  return seeded;
}

describe('dueAtFor', () => {
  const at = (iso: string) => new Date(iso);
  it('is 08:00 in the organization’s zone, day days after the approval’s calendar day', () => {
    // 10:00 in Berlin (summer, UTC+2) on 1 July: day 1 is 2 July 08:00 Berlin = 06:00Z.
    expect(dueAtFor(at('2026-07-01T08:00:00Z'), 1, 'Europe/Berlin').toISOString()).toBe('2026-07-02T06:00:00.000Z');
    expect(dueAtFor(at('2026-07-01T08:00:00Z'), 3, 'Europe/Berlin').toISOString()).toBe('2026-07-04T06:00:00.000Z');
    // Across the end of summer time (25 October 2026): 08:00 Berlin is 07:00Z afterwards.
    expect(dueAtFor(at('2026-10-24T12:00:00Z'), 2, 'Europe/Berlin').toISOString()).toBe('2026-10-26T07:00:00.000Z');
    // 23:00 in Los Angeles is already the next UTC day: the local day counts.
    expect(dueAtFor(at('2026-03-11T06:00:00Z'), 1, 'America/Los_Angeles').toISOString()).toBe('2026-03-11T15:00:00.000Z');
    expect(dueAtFor(at('2026-03-11T06:00:00Z'), 0, 'UTC').toISOString()).toBe('2026-03-11T08:00:00.000Z');
  });

  it('day 0 after 08:00 is due at once; before 08:00 it waits for 08:00', () => {
    const late = at('2026-07-01T13:37:00Z');
    expect(dueAtFor(late, 0, 'Europe/Berlin').toISOString()).toBe(late.toISOString());
    expect(dueAtFor(at('2026-07-01T04:00:00Z'), 0, 'Europe/Berlin').toISOString()).toBe('2026-07-01T06:00:00.000Z');
    // An unknown zone (never stored) counts as UTC rather than stopping the plan.
    expect(dueAtFor(at('2026-07-01T04:00:00Z'), 1, 'Mars/Olympus').toISOString()).toBe('2026-07-02T08:00:00.000Z');
  });
});

describe('steps on the embedded queue', () => {
  it('schedules in the approval’s transaction, runs each step once when due, and ends the plan', async () => {
    const t = await newTenant(env);
    const rolledBack = await seedPlan(db(), t.org.id, [{ kind: 'test.count' }]);
    await db()
      .transaction(async (tx) => {
        await scheduleSteps(tx, env.services, [{ id: rolledBack.stepIds[0], dueAt: env.clock.now() }]);
        throw new Error('approval rolled back');
      })
      .catch(() => undefined);
    expect((await stepRow(db(), rolledBack.stepIds[0])).status).toBe('approved');
    expect(await db().select().from(jobs).where(eq(jobs.dedupeKey, `plan-step:${rolledBack.stepIds[0]}:${env.clock.now().getTime()}`))).toHaveLength(0);

    const p = await approve(t, [{ kind: 'test.count' }, { kind: 'test.count', day: 1 }], 3_600_000);
    const later = await seedPlan(db(), t.org.id, [{ kind: 'test.count' }]);
    // A third step of the same plan, due later, keeps the plan open while the first two are duplicated.
    await db().update(planSteps).set({ planId: p.planId, position: 2 }).where(eq(planSteps.id, later.stepIds[0]));
    await db().transaction((tx) => scheduleSteps(tx, env.services, [{ id: later.stepIds[0], dueAt: new Date(env.clock.now().getTime() + 5 * 3_600_000) }]));
    expect((await stepRow(db(), p.stepIds[0])).status).toBe('scheduled');
    await drain();
    expect(runsOf(p.stepIds[0])).toHaveLength(0); // not due yet
    env.clock.advance(3_600_000);
    await drain();
    for (const id of p.stepIds) {
      expect(runsOf(id)).toHaveLength(1);
      const row = await stepRow(db(), id);
      expect(row).toMatchObject({ status: 'done', result: { counted: true }, attempts: 1, leaseUntil: null });
      expect(row.ranAt).not.toBeNull();
    }
    expect((await planOf(p.planId)).status).toBe('approved'); // its third step is still to come
    // A duplicated delivery (the job again, a QStash retry) finds nothing to do.
    expect(await executeStep(env.services, p.stepIds[0])).toBe('skipped');
    await jobHandlers[PLAN_STEP_JOB]({ step_id: p.stepIds[0] }, { services: env.services, attempt: 2 });
    expect(runsOf(p.stepIds[0])).toHaveLength(1);
    env.clock.advance(4 * 3_600_000);
    await drain();
    expect(runsOf(later.stepIds[0])).toHaveLength(1);
    expect((await planOf(p.planId)).status).toBe('done');

    const log = await db().select().from(planLog).where(eq(planLog.planId, p.planId));
    expect(log.map((l) => l.action).sort()).toEqual(['plan.done', 'step.done', 'step.done', 'step.done']);
    expect(new Set(log.map((l) => l.actor))).toEqual(new Set(['system']));
    const audit = await db().select().from(auditLog).where(and(eq(auditLog.orgId, t.org.id), eq(auditLog.actor, 'system')));
    expect(audit.map((a) => a.action).sort()).toEqual(['plan.done', 'plan.step.done', 'plan.step.done', 'plan.step.done']);
  });

  it('never runs a step of a paused plan, or one taken back by unscheduleSteps', async () => {
    const t = await newTenant(env);
    const p = await approve(t, [{ kind: 'test.count' }, { kind: 'test.count' }]);
    await db().update(plans).set({ status: 'paused' }).where(eq(plans.id, p.planId));
    await db().transaction((tx) => unscheduleSteps(tx, [p.stepIds[1]]));
    await drain();
    await sweepSteps(env.services);
    await drain();
    expect(runsOf(p.stepIds[0])).toHaveLength(0);
    expect((await stepRow(db(), p.stepIds[0])).status).toBe('scheduled');
    expect(await stepRow(db(), p.stepIds[1])).toMatchObject({ status: 'approved', dueAt: null });
    // Resumed: approved again and rescheduled at a new time; the new job runs it, once.
    await db().update(plans).set({ status: 'approved' }).where(eq(plans.id, p.planId));
    await db().transaction((tx) => scheduleSteps(tx, env.services, [{ id: p.stepIds[1], dueAt: env.clock.now() }]));
    await drain();
    expect(runsOf(p.stepIds[1])).toHaveLength(1);
  });

  it('retries a run that throws, later, up to its bound; then the step and the plan fail with the error', async () => {
    const t = await newTenant(env);
    const p = await approve(t, [{ kind: 'test.flaky', params: { fail_times: 1 } }, { kind: 'test.flaky', params: { fail_times: 99 } }]);
    await drain();
    const [recovering, hopeless] = p.stepIds;
    expect(await stepRow(db(), recovering)).toMatchObject({ status: 'scheduled', attempts: 1, error: expect.stringContaining('flaky outside service') });
    for (let i = 1; i < MAX_STEP_ATTEMPTS; i++) {
      env.clock.advance(retryDelayMs(i));
      await drain();
    }
    expect(await stepRow(db(), recovering)).toMatchObject({ status: 'done', attempts: 2, error: null });
    expect(runsOf(recovering)).toHaveLength(2);
    expect(await stepRow(db(), hopeless)).toMatchObject({ status: 'failed', attempts: MAX_STEP_ATTEMPTS, error: expect.stringContaining('flaky outside service') });
    expect(runsOf(hopeless)).toHaveLength(MAX_STEP_ATTEMPTS);
    expect((await planOf(p.planId)).status).toBe('failed');
    const log = await db().select().from(planLog).where(eq(planLog.planId, p.planId));
    expect(log.filter((l) => l.action === 'step.retry')).toHaveLength(1 + (MAX_STEP_ATTEMPTS - 1));
    expect(log.some((l) => l.action === 'plan.failed')).toBe(true);
  });

  it('an expired lease is taken over (the sweep queues it); the old holder cannot mark it', async () => {
    const t = await newTenant(env);
    const p = await approve(t, [{ kind: 'test.count' }]);
    const id = p.stepIds[0];
    // A consumer that leased the step and died: status running, attempts 1, lease not yet expired.
    await db().delete(jobs).where(eq(jobs.kind, PLAN_STEP_JOB));
    await db()
      .update(planSteps)
      .set({ status: 'running', attempts: 1, leaseUntil: new Date(env.clock.now().getTime() + stepLeaseMs()) })
      .where(eq(planSteps.id, id));
    await jobHandlers[PLAN_SWEEP_JOB]({}, { services: env.services, attempt: 1 });
    await drain();
    expect(runsOf(id)).toHaveLength(0); // the lease still holds
    env.clock.advance(stepLeaseMs() + 1);
    await jobHandlers[PLAN_SWEEP_JOB]({}, { services: env.services, attempt: 1 });
    await jobHandlers[PLAN_SWEEP_JOB]({}, { services: env.services, attempt: 1 }); // a repeated sweep adds no job
    expect((await db().select().from(jobs).where(and(eq(jobs.kind, PLAN_STEP_JOB)))).filter((j) => j.doneAt === null)).toHaveLength(1);
    await drain();
    expect(runsOf(id)).toHaveLength(1);
    expect(await stepRow(db(), id)).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('the sweep queues a scheduled step whose job was lost', async () => {
    const t = await newTenant(env);
    const p = await approve(t, [{ kind: 'test.count' }]);
    await db().delete(jobs).where(eq(jobs.kind, PLAN_STEP_JOB));
    await sweepSteps(env.services);
    await drain();
    expect(runsOf(p.stepIds[0])).toHaveLength(0); // within the grace its own job may still come
    env.clock.advance(60_000);
    expect((await sweepSteps(env.services)).missed).toBeGreaterThanOrEqual(1);
    await drain();
    expect(runsOf(p.stepIds[0])).toHaveLength(1);
  });

  it('a step whose params no longer validate fails at once, without a run', async () => {
    const t = await newTenant(env);
    const p = await approve(t, [{ kind: 'test.flaky', params: { fail_times: 'x' } }]);
    await drain();
    expect(await stepRow(db(), p.stepIds[0])).toMatchObject({ status: 'failed', error: expect.stringContaining('fail_times') });
    expect(runsOf(p.stepIds[0])).toHaveLength(0);
  });
});

describe('the embedded scheduler picks a due step up by itself', () => {
  it('polls well within 60 s and sweeps every ≤ 60 s; a step due now runs without anyone draining', async () => {
    expect(jobSchedule.periodic?.find((p) => p.kind === PLAN_SWEEP_JOB)?.everyMs).toBeLessThanOrEqual(60_000);
    const t = await newTenant(env);
    const runner = startJobRunner(env.services, jobHandlers, { ...jobSchedule, pollMs: 1_000 });
    try {
      const p = await approve(t, [{ kind: 'test.count' }], 0);
      // No drain, no poke: the job was written in a transaction, so only the runner's own tick can find it.
      const until = Date.now() + 55_000;
      while ((await stepRow(db(), p.stepIds[0])).status !== 'done' && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      expect((await stepRow(db(), p.stepIds[0])).status).toBe('done');
      expect(runsOf(p.stepIds[0])).toHaveLength(1);
    } finally {
      await runner.stop();
    }
  }, 60_000);
});
