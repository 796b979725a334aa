// Approval turns steps into work on the queue. The plan_steps rows are the truth (status `scheduled`, `due_at`);
// a job per step is only the wake-up call. Embedded scheduler: the job row commits with the approval. QStash: the
// message is published after the commit (publishScheduledSteps) with a delay to its due time; the sweep
// (lib/plans/jobs.ts) publishes whatever a lost publish or QStash's maximum delay left behind, and runs what is
// overdue. A job that arrives for a step that is not due, not scheduled, or already done finds nothing to do.
import { and, inArray, sql } from 'drizzle-orm';
import { planSteps } from '../../schema';
import type { Db } from '../db/types';
import { errorText } from '../log';
import type { JobInput } from '../queue/port';
import type { Services } from '../services';

export const PLAN_STEP_JOB = 'plan.step';
export const PLAN_SWEEP_JOB = 'plan.sweep';

/** Steps further out than this are not published at approval; the sweep publishes them when they come near. */
export const QSTASH_MAX_DELAY_MS = 7 * 86_400_000;
/** The wall-clock hour a step runs on its day (agency-operator.md §4). */
export const STEP_HOUR = 8;

/**
 * One job per (step, due time): a duplicate delivery of the same schedule is dropped by the queue, while a step that
 * is paused and resumed, or retried, at a new time gets a job of its own (an old key would be dropped as a repeat).
 */
export const stepJob = (id: string, dueAt: Date, suffix = ''): JobInput => ({
  kind: PLAN_STEP_JOB,
  payload: { step_id: id },
  runAt: dueAt,
  dedupeKey: `plan-step:${id}:${dueAt.getTime()}${suffix}`,
});

/**
 * Marks the steps scheduled at their due time and, on a transactional queue, writes their jobs in `tx`. Called by
 * the approval (and resume) inside its transaction; with QStash the caller publishes after its commit
 * (publishScheduledSteps) — if it does not, or the publish fails, the sweep runs the step within a minute of its
 * due time. Steps that already ran (done, failed, undone) or are running are left alone.
 */
export async function scheduleSteps(tx: Db, services: Services, steps: { id: string; dueAt: Date }[]): Promise<void> {
  if (steps.length === 0) return;
  const now = services.clock.now().toISOString();
  // One statement for the whole approval, however many steps it has.
  const values = sql.join(
    steps.map((s) => sql`(${s.id}::uuid, ${s.dueAt.toISOString()}::timestamptz)`),
    sql`, `,
  );
  await tx.execute(sql`update plan_steps s set status = 'scheduled', due_at = v.due_at, lease_until = null, error = null, updated_at = ${now}::timestamptz
    from (values ${values}) as v(id, due_at)
    where s.id = v.id and s.status not in ('running', 'done', 'failed', 'undone')`);
  if (services.queue.transactional) await services.queue.enqueue(steps.map((s) => stepJob(s.id, s.dueAt)), { tx });
}

/** After the approval committed, for a queue that cannot join a transaction (QStash). Never throws: the sweep is the net. */
export async function publishScheduledSteps(services: Services, steps: { id: string; dueAt: Date }[]): Promise<void> {
  if (services.queue.transactional || steps.length === 0) return;
  const horizon = services.clock.now().getTime() + QSTASH_MAX_DELAY_MS;
  const near = steps.filter((s) => s.dueAt.getTime() <= horizon);
  if (near.length === 0) return;
  await services.queue
    .enqueue(near.map((s) => stepJob(s.id, s.dueAt)))
    .catch((err) => services.log.warn('plan steps not published; the sweep will run them', { steps: near.length, error: errorText(err) }));
}

/**
 * Pause and change: the steps go back to `status` (default `approved`: waiting for the plan to be resumed or
 * approved again) and lose their due time. Their jobs stay queued and find nothing to do when they arrive.
 */
export async function unscheduleSteps(tx: Db, stepIds: string[], status: 'waiting' | 'approved' = 'approved'): Promise<void> {
  if (stepIds.length === 0) return;
  await tx
    .update(planSteps)
    .set({ status, dueAt: null, leaseUntil: null, updatedAt: sql`now()` })
    .where(and(inArray(planSteps.id, stepIds), inArray(planSteps.status, ['waiting', 'approved', 'scheduled'])));
}

/**
 * When a step of `day` runs: `day` days after the approval's calendar day, at 08:00 in the organization's zone.
 * Day 0 whose 08:00 has already passed is due at once (the approval is the go-ahead; waiting until tomorrow would
 * shift every later day's meaning). Later days never fall before the approval, so they keep their 08:00.
 */
export function dueAtFor(approvedAt: Date, day: number, timeZone: string): Date {
  const zone = validZone(timeZone);
  const [y, m, d] = localParts(approvedAt, zone);
  const due = zonedToUtc(y, m, d + day, STEP_HOUR, 0, zone);
  return due.getTime() < approvedAt.getTime() ? new Date(approvedAt.getTime()) : due;
}

function validZone(timeZone: string) {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return timeZone;
  } catch {
    return 'UTC'; // zones are checked when stored; a stale one must not stop a plan
  }
}

function localParts(at: Date, timeZone: string): number[] {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(at);
  const get = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  return [get('year'), get('month'), get('day'), get('hour'), get('minute'), get('second')];
}

/** The zone's offset from UTC at an instant, in ms. */
function offsetAt(at: Date, timeZone: string) {
  const [y, m, d, h, mi, s] = localParts(at, timeZone);
  return Date.UTC(y, m - 1, d, h, mi, s) - Math.floor(at.getTime() / 1000) * 1000;
}

/** The instant a wall time in a zone names; in a DST gap the later offset wins (08:00 never falls in one today). */
function zonedToUtc(y: number, m: number, d: number, h: number, mi: number, timeZone: string): Date {
  const wall = Date.UTC(y, m - 1, d, h, mi);
  let guess = wall - offsetAt(new Date(wall), timeZone);
  guess = wall - offsetAt(new Date(guess), timeZone);
  return new Date(guess);
}
