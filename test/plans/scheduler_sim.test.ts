// CLOCK=sim: the clock lives in sim_clock and in memory, moves only by POST /admin/v1/sim/clock, and the advance
// runs everything that falls due on the way in time order — plan steps at 08:00 in the organization's zone on their
// day, queued jobs at their run_at, a failed step's retry, registered ticks at their slots — each seeing the clock
// at exactly its own time. Days of plans run in well under a second of real time.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizations, plans } from '../../schema';
import { CLOCK_TICK_JOB } from '../../lib/clock/jobs';
import { isSimClock, loadSimClock } from '../../lib/clock/sim';
import { registerTick, tick, unregisterTick } from '../../lib/clock/ticks';
import { retryDelayMs, stepRow } from '../../lib/plans/execute';
import { dueAtFor, scheduleSteps } from '../../lib/plans/schedule';
import { createNodeServices, type NodeServices } from '../../lib/runtime/node';
import { workerServices } from '../../lib/runtime/worker';
import { loadConfig } from '../../lib/config';
import { createNodeApp } from '../../scripts/node_server';
import { ADMIN_TOKEN, startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant, randomIp, request } from '../helpers/tenant';
import { registerTestKinds, runsOf, seedPlan } from './scheduler_helpers';

let wall: TestEnv;
let sim: TestEnv;
let simServices: NodeServices;
const ticked: { name: string; at: Date; now: Date }[] = [];

beforeAll(async () => {
  registerTestKinds();
  wall = await startTestEnv({ CLOCK: 'sim' }); // given a test clock: the route must still refuse
  // The same database, services built as under `CLOCK=sim npm run dev`: the clock comes from sim_clock.
  simServices = await createNodeServices(wall.config, { database: wall.services.database });
  sim = { ...wall, services: simServices, app: createNodeApp(simServices) };
  registerTick('test.hourly', { everySeconds: 3600 }, async (s, at) => void ticked.push({ name: 'test.hourly', at, now: s.clock.now() }));
  registerTick('test.daily', { dailyAt: '07:30' }, async (s, at) => void ticked.push({ name: 'test.daily', at, now: s.clock.now() }));
});
afterAll(async () => {
  unregisterTick('test.hourly');
  unregisterTick('test.daily');
  await wall.close();
});

const ip = randomIp();
const admin = (env: TestEnv, method: string, body?: unknown) =>
  request(env, method, '/admin/v1/sim/clock', { key: null, body, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, ip });
const simNow = () => simServices.clock.now();

describe('the simulated clock', () => {
  it('starts at the wall time of the first start, is stored, and stands still between advances', async () => {
    expect(isSimClock(simServices.clock)).toBe(true);
    expect(Math.abs(simNow().getTime() - Date.now())).toBeLessThan(60_000);
    const before = simNow();
    await new Promise((r) => setTimeout(r, 20));
    expect(simNow()).toEqual(before);
    const got = await admin(sim, 'GET');
    expect(got).toMatchObject({ status: 200, json: { now: before.toISOString() } });
  });

  it('refuses bad advances with 400 naming the field, and is 404 naming CLOCK when the clock is not simulated', async () => {
    const before = simNow();
    for (const body of [{ advance_seconds: 0 }, { advance_seconds: 31 * 86_400 + 1 }, { advance_seconds: '60' }, { advance_seconds: 1.5 }, {}, { advance_seconds: 60, extra: 1 }]) {
      const res = await admin(sim, 'POST', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error.code).toBe('validation_error');
    }
    expect(simNow()).toEqual(before);
    for (const method of ['POST', 'GET']) {
      const res = await admin(wall, method, method === 'POST' ? { advance_seconds: 60 } : undefined);
      expect(res.status).toBe(404);
      expect(res.json.error.message).toContain('CLOCK');
    }
  });

  it('runs steps at 08:00 on their day, jobs at their time, retries and ticks, in order, each at its own time', async () => {
    const t = await newTenant(sim);
    await sim.services.db.update(organizations).set({ timezone: 'Europe/Berlin' }).where(eq(organizations.id, t.org.id));
    const approvedAt = simNow();
    const p = await seedPlan(sim.services.db, t.org.id, [{ kind: 'test.count', day: 3 }, { kind: 'test.count', day: 1 }, { kind: 'test.flaky', day: 2, params: { fail_times: 1 } }, { kind: 'test.count', day: 0 }], { now: approvedAt });
    const days = [3, 1, 2, 0];
    const due = days.map((d) => dueAtFor(approvedAt, d, 'Europe/Berlin'));
    await sim.services.db.transaction((tx) => scheduleSteps(tx, sim.services, p.stepIds.map((id, i) => ({ id, dueAt: due[i] }))));
    const jobAt = new Date(approvedAt.getTime() + 90 * 60_000);
    await sim.services.queue.enqueue({ kind: CLOCK_TICK_JOB, payload: { name: 'test.hourly', at: jobAt.toISOString() }, runAt: jobAt, dedupeKey: `sim-test-job:${jobAt.getTime()}` });
    ticked.length = 0;

    const q0 = simServices.dbStats.queries;
    const started = Date.now();
    const res = await admin(sim, 'POST', { advance_seconds: 4 * 86_400 });
    const realMs = Date.now() - started;
    expect(res.status).toBe(200);
    const end = new Date(approvedAt.getTime() + 4 * 86_400_000);
    expect(res.json.now).toBe(end.toISOString());
    expect(simNow()).toEqual(end);
    const ran = res.json.ran as { at: string; what: string; id: string; kind: string; outcome: string }[];

    // In time order, never backwards.
    const times = ran.map((r) => Date.parse(r.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // Every step ran at its due time and saw the clock at exactly that time.
    const steps = ran.filter((r) => r.what === 'plan_step');
    const flaky = p.stepIds[2];
    expect(steps.map((r) => [r.id, r.outcome])).toEqual(
      [...p.stepIds.map((id, i) => ({ id, at: due[i].getTime(), outcome: id === flaky ? 'failed' : 'ran' })), { id: flaky, at: due[2].getTime() + retryDelayMs(1), outcome: 'ran' }]
        .sort((a, b) => a.at - b.at)
        .map((s) => [s.id, s.outcome]),
    );
    for (const [i, id] of p.stepIds.entries()) {
      expect(runsOf(id)[0].now.toISOString()).toBe(due[i].toISOString());
      expect((await stepRow(sim.services.db, id)).status).toBe('done');
    }
    expect(runsOf(flaky)[1].now.getTime()).toBe(due[2].getTime() + retryDelayMs(1));
    // 08:00 Berlin in summer or winter: 06:00Z or 07:00Z.
    for (const d of due.slice(0, 3)) expect(['06:00', '07:00']).toContain(d.toISOString().slice(11, 16));
    expect((await sim.services.db.select().from(plans).where(eq(plans.id, p.planId)))[0].status).toBe('done');

    // The queued job at its run_at; hourly ticks on every hour, the daily one at 07:30 UTC, each at its slot.
    expect(ran.filter((r) => r.what === 'job' && r.kind === CLOCK_TICK_JOB).map((r) => r.at)).toEqual([jobAt.toISOString()]);
    const hourly = ticked.filter((x) => x.name === 'test.hourly' && x.at.getTime() !== jobAt.getTime());
    expect(hourly).toHaveLength(96);
    for (const x of ticked) expect(x.now.toISOString()).toBe(x.at.toISOString());
    expect(hourly.every((x) => x.at.getTime() % 3_600_000 === 0)).toBe(true);
    const daily = ticked.filter((x) => x.name === 'test.daily');
    expect(daily.length).toBe(4);
    expect(daily.every((x) => x.at.toISOString().slice(11, 16) === '07:30')).toBe(true);
    console.log(`sim clock: 4 days advanced in ${realMs} ms real time, ${ran.length} things ran, ${simServices.dbStats.queries - q0} statements`);

    // Stored: a restart reads the same time, and continues from there.
    expect((await loadSimClock(sim.services.db)).now()).toEqual(end);
  });

  it('a coalescing tick runs once for its latest slot at each moment the clock stops, never a stop of its own', async () => {
    const seen: { at: Date; now: Date }[] = [];
    registerTick('test.hourly', { everySeconds: 3600 }, async (s, at) => void ticked.push({ name: 'test.hourly', at, now: s.clock.now() }));
    registerTick('test.snapshot', { everySeconds: 600 }, async (s, at) => void seen.push({ at, now: s.clock.now() }), { coalesce: true });
    try {
      const start = simNow();
      const res = await admin(sim, 'POST', { advance_seconds: 3 * 3600 });
      expect(res.status).toBe(200);
      const end = new Date(start.getTime() + 3 * 3600_000);
      // 18 slots of 10 minutes pass; it runs at the three hourly stops (the hour's own slot, after its work) and at the end.
      const hours = [1, 2, 3].map((h) => new Date(Math.floor(start.getTime() / 3600_000 + h) * 3600_000)).filter((d) => d <= end);
      const expected = hours.map((h) => h.toISOString());
      const last = new Date(Math.floor(end.getTime() / 600_000) * 600_000);
      if (!expected.includes(last.toISOString())) expected.push(last.toISOString());
      expect(seen.map((x) => x.at.toISOString())).toEqual(expected);
      // Each run sees the clock at a moment it stopped at, never before its slot.
      for (const x of seen) expect(x.now.getTime()).toBeGreaterThanOrEqual(x.at.getTime());
      // It made no stop of its own: every 'ran' time is an hour, the end, or a slot of the coalescing tick run at a stop.
      const stops = new Set(res.json.ran.filter((r: { id: string }) => !tick(r.id)?.coalesce).map((r: { at: string }) => r.at));
      for (const at of stops) expect(Date.parse(at as string) % 3600_000 === 0 || at === end.toISOString(), String(at)).toBe(true);
    } finally {
      unregisterTick('test.snapshot');
      unregisterTick('test.hourly');
    }
  });

  it('an advance with nothing due just moves the clock', async () => {
    const before = simNow();
    unregisterTick('test.hourly');
    unregisterTick('test.daily');
    const res = await admin(sim, 'POST', { advance_seconds: 1_800 });
    expect(res.status).toBe(200);
    expect(res.json.now).toBe(new Date(before.getTime() + 1_800_000).toISOString());
    // Only other parts' registered ticks (course, dismissed plans) may have run; no step, no job.
    expect(res.json.ran.filter((r: { what: string }) => r.what !== 'tick')).toEqual([]);
  });

  it('refuses to start where simulated time cannot hold: on Workers, and beside QStash', async () => {
    const worker = { DATABASE_URL: 'postgres://u:p@db.example.com/app', UPSTASH_REDIS_REST_URL: 'https://redis.example.com', UPSTASH_REDIS_REST_TOKEN: 'token', ENCRYPTION_KEY: 'a'.repeat(64), CLOCK: 'sim' };
    expect(() => workerServices(worker)).toThrow(/CLOCK=sim is for the embedded runtime/);
    const qstash = loadConfig({ ...wall.config, CLOCK: 'sim', QSTASH_TOKEN: 't', QSTASH_CURRENT_SIGNING_KEY: 'k', QSTASH_NEXT_SIGNING_KEY: 'n', LOG_LEVEL: 'silent' } as never);
    await expect(createNodeServices(qstash, { database: wall.services.database })).rejects.toThrow(/CLOCK=sim needs the embedded scheduler/);
    expect(() => loadConfig({ CLOCK: 'fast' })).toThrow(/CLOCK/);
  });
});
