// POST /admin/v1/sim/clock: moves the simulated clock forward and runs, in time order, everything that falls due on
// the way — plan steps at their due time, queued jobs at their run_at (webhook deliveries, retries, follow-ups,
// a step's retry), expired leases, and registered ticks at their slots. The clock stops at every such moment (it
// is set to exactly that time while the work runs, so rows carry the time they would carry in production), then
// goes on. At one moment: steps, then jobs, then ticks (a snapshot taken at 08:00 sees what the 08:00 steps did),
// then whatever those queued for that same moment.
import { sql } from 'drizzle-orm';
import { rows } from '../db/types';
import { errorText } from '../log';
import { claimJobs, completeJobs, failJob } from '../queue/embedded';
import type { JobHandlers } from '../queue/port';
import { runHandler } from '../queue/run';
import { executeStep } from '../plans/execute';
import { PLAN_STEP_JOB } from '../plans/schedule';
import type { Services } from '../services';
import { isSimClock, saveSimClock } from './sim';
import { slotAtOrBefore, slotsBetween, ticks, slotAfter } from './ticks';

export const MAX_ADVANCE_SECONDS = 31 * 86_400;
/** A moment whose work keeps queuing more work for the same moment is cut off here (a loop, not a workload). */
const MAX_ROUNDS_PER_MOMENT = 200;

export type Ran = { at: string; what: 'plan_step' | 'job' | 'tick'; id: string; kind: string; outcome: string };

export type AdvanceOptions = { handlers: JobHandlers; everyTick?: readonly string[] };

export async function advanceSimClock(services: Services, seconds: number, opts: AdvanceOptions): Promise<{ now: Date; ran: Ran[] }> {
  const clock = services.clock;
  if (!isSimClock(clock)) throw new Error('advanceSimClock needs CLOCK=sim');
  return clock.exclusive(async () => {
    const ran: Ran[] = [];
    const target = new Date(clock.now().getTime() + seconds * 1000);
    let cur = clock.now();
    const coalesced = new Map(ticks().filter((t) => t.coalesce).map((t) => [t.name, slotAtOrBefore(t, cur).getTime()]));
    await runMoment(services, opts, cur, [], ran); // what was already due (a day-0 step approved a moment ago)
    for (;;) {
      const next = await nextMoment(services, cur, target);
      if (!next) break;
      // A latest slot before this moment sees the state its work has not changed yet; a slot at exactly it sees that work.
      await runCoalesced(services, next, coalesced, ran, 'before');
      clock.set(next);
      await runMoment(services, opts, next, slotsBetween(cur, next), ran);
      await runCoalesced(services, next, coalesced, ran, 'at');
      await saveSimClock(services.db, next);
      cur = next;
    }
    if (cur.getTime() < target.getTime()) {
      clock.set(target);
      await runCoalesced(services, target, coalesced, ran, 'before');
      await runCoalesced(services, target, coalesced, ran, 'at');
      await saveSimClock(services.db, target);
    }
    return { now: clock.now(), ran };
  });
}

/** The earliest moment in (after, until] at which something falls due, or null. */
async function nextMoment(services: Services, after: Date, until: Date): Promise<Date | null> {
  const a = after.toISOString();
  const u = until.toISOString();
  const [row] = await rows<{ next: string | Date | null }>(
    services.db,
    sql`select least(
          (select min(s.due_at) from plan_steps s join plans p on p.id = s.plan_id
            where p.status = 'approved' and s.status = 'scheduled' and s.due_at > ${a}::timestamptz and s.due_at <= ${u}::timestamptz),
          (select min(s.lease_until) from plan_steps s join plans p on p.id = s.plan_id
            where p.status = 'approved' and s.status = 'running' and s.lease_until > ${a}::timestamptz and s.lease_until <= ${u}::timestamptz),
          (select min(greatest(run_at, coalesce(locked_until, run_at))) from jobs
            where done_at is null and greatest(run_at, coalesce(locked_until, run_at)) > ${a}::timestamptz
              and greatest(run_at, coalesce(locked_until, run_at)) <= ${u}::timestamptz)
        ) as next`,
  );
  let next = row?.next ? new Date(row.next) : null;
  for (const t of ticks()) {
    if (t.coalesce) continue;
    const s = slotAfter(t, after);
    if (s.getTime() <= until.getTime() && (!next || s.getTime() < next.getTime())) next = s;
  }
  return next;
}

/**
 * Each coalescing tick once for its latest slot at or before `at`, if that slot is newer than its last run: `before`
 * the moment's work when the slot lies before it, `at` (after the work) when the slot is exactly the moment.
 */
async function runCoalesced(services: Services, at: Date, last: Map<string, number>, ran: Ran[], phase: 'before' | 'at') {
  for (const t of ticks()) {
    if (!t.coalesce) continue;
    const slot = slotAtOrBefore(t, at);
    if ((phase === 'before') !== slot.getTime() < at.getTime()) continue;
    if (slot.getTime() <= (last.get(t.name) ?? -Infinity)) continue;
    last.set(t.name, slot.getTime());
    let outcome = 'done';
    try {
      await t.fn(services, slot);
    } catch (err) {
      outcome = `failed: ${errorText(err)}`;
      services.log.warn('tick failed', { tick: t.name, at: slot.toISOString(), error: errorText(err) });
    }
    ran.push({ at: slot.toISOString(), what: 'tick', id: t.name, kind: 'tick', outcome });
  }
}

async function runMoment(services: Services, opts: AdvanceOptions, at: Date, slots: ReturnType<typeof slotsBetween>, ran: Ran[]) {
  const stamp = at.toISOString();
  let ticksDone = false;
  for (let round = 0; round < MAX_ROUNDS_PER_MOMENT; round++) {
    let worked = false;
    const due = await rows<{ id: string; kind: string }>(
      services.db,
      sql`select s.id, s.kind from plan_steps s join plans p on p.id = s.plan_id
          where p.status = 'approved' and ((s.status = 'scheduled' and s.due_at <= ${stamp}::timestamptz)
            or (s.status = 'running' and s.lease_until <= ${stamp}::timestamptz))
          order by coalesce(s.due_at, s.lease_until), s.position, s.id`,
    );
    for (const s of due) {
      const outcome = await executeStep(services, s.id);
      if (outcome !== 'skipped') worked = true;
      ran.push({ at: stamp, what: 'plan_step', id: s.id, kind: s.kind, outcome });
    }
    for (;;) {
      const claimed = await claimJobs(services.db, { now: at, limit: 50, leaseMs: 60_000 });
      if (claimed.length === 0) break;
      worked = true;
      for (const job of claimed) {
        let outcome = 'done';
        try {
          await runHandler(opts.handlers, job.kind, job.payload, { services, attempt: job.attempts });
          await completeJobs(services.db, [job.id], at);
        } catch (err) {
          outcome = `failed: ${errorText(err)}`;
          await failJob(services.db, job, errorText(err), at);
        }
        // A step's own job finds the step already run above: listing it would only repeat the step.
        if (job.kind !== PLAN_STEP_JOB) ran.push({ at: stamp, what: 'job', id: job.id, kind: job.kind, outcome });
      }
    }
    if (!ticksDone) {
      ticksDone = true;
      for (const { tick, at: slot } of slots) {
        let outcome = 'done';
        try {
          await tick.fn(services, slot);
        } catch (err) {
          outcome = `failed: ${errorText(err)}`;
          services.log.warn('tick failed', { tick: tick.name, at: slot.toISOString(), error: errorText(err) });
        }
        worked = true;
        ran.push({ at: slot.toISOString(), what: 'tick', id: tick.name, kind: 'tick', outcome });
      }
    }
    if (!worked) return;
    // What ran may have written events: the webhook dispatcher (the runner's every-tick kinds) sends them now.
    for (const kind of opts.everyTick ?? []) await runHandler(opts.handlers, kind, {}, { services, attempt: 1 }).catch(() => undefined);
  }
  services.log.warn('sim clock: work kept falling due at one moment; moving on', { at: stamp });
}
