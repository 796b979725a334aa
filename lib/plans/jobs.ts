import { z } from 'zod';
import { sql } from 'drizzle-orm';
import { rows } from '../db/types';
import { errorText } from '../log';
import type { JobHandlers, JobInput } from '../queue/port';
import type { Services } from '../services';
import { executeStep } from './execute';
import { PLAN_STEP_JOB, PLAN_SWEEP_JOB, stepJob } from './schedule';

export { PLAN_STEP_JOB, PLAN_SWEEP_JOB };

const StepPayload = z.object({ step_id: z.uuid() });

/** A due step this long without its job having taken it counts as missed (its job was lost or never published). */
const SWEEP_GRACE_MS = 30_000;
/** With QStash, steps due this soon are (re)published on every sweep: dedup keeps one delivery per due time. */
const PUBLISH_AHEAD_MS = 3 * 60_000;
const SWEEP_LIMIT = 500;

/**
 * The net under the queue (periodic, every minute; the jobs Worker's cron on Workers):
 * - missed: scheduled steps of approved plans overdue by the grace, and running steps whose lease ran out (a
 *   process killed mid-run), get a fresh job now. The key carries the attempt count, so a sweep repeated before
 *   that job ran adds nothing, and a step taken over gets a new one;
 * - QStash only: steps due within the next minutes are published with their due time, which covers a publish
 *   lost after the approval's commit and steps beyond QStash's maximum delay, which approval does not publish.
 * It never runs a step itself: the runner's periodic loop must stay short, and the job path holds the lease logic.
 */
export async function sweepSteps(services: Services): Promise<{ missed: number; published: number }> {
  const { db, clock, queue } = services;
  const now = clock.now();
  const missed = await rows<{ id: string; attempts: number; status: string }>(
    db,
    sql`select s.id, s.attempts, s.status from plan_steps s join plans p on p.id = s.plan_id
        where p.status = 'approved' and (
          (s.status = 'scheduled' and s.due_at <= ${new Date(now.getTime() - SWEEP_GRACE_MS).toISOString()}::timestamptz)
          or (s.status = 'running' and s.lease_until <= ${now.toISOString()}::timestamptz))
        order by coalesce(s.lease_until, s.due_at) limit ${SWEEP_LIMIT}`,
  );
  const jobs: JobInput[] = missed.map((s) => ({ kind: PLAN_STEP_JOB, payload: { step_id: s.id }, runAt: now, dedupeKey: `plan-step:${s.id}:sweep:${s.status}:${s.attempts}` }));
  if (!queue.transactional) {
    const soon = await rows<{ id: string; due_at: string | Date }>(
      db,
      sql`select s.id, s.due_at from plan_steps s join plans p on p.id = s.plan_id
          where p.status = 'approved' and s.status = 'scheduled'
            and s.due_at > ${new Date(now.getTime() - SWEEP_GRACE_MS).toISOString()}::timestamptz
            and s.due_at <= ${new Date(now.getTime() + PUBLISH_AHEAD_MS).toISOString()}::timestamptz
          order by s.due_at limit ${SWEEP_LIMIT}`,
    );
    jobs.push(...soon.map((s) => stepJob(s.id, new Date(s.due_at))));
  }
  if (jobs.length > 0) {
    await queue.enqueue(jobs).catch((err) => services.log.warn('plan sweep could not enqueue; next sweep tries again', { jobs: jobs.length, error: errorText(err) }));
  }
  return { missed: missed.length, published: jobs.length - missed.length };
}

/** The plan kinds for the job registry (functions/jobs/handlers.ts): both queue adapters run them. */
export function planJobHandlers(): JobHandlers {
  return {
    [PLAN_STEP_JOB]: async (payload, { services }) => {
      const parsed = StepPayload.safeParse(payload);
      if (!parsed.success) throw new Error(`${PLAN_STEP_JOB}: malformed payload`);
      await executeStep(services, parsed.data.step_id);
    },
    [PLAN_SWEEP_JOB]: async (_payload, { services }) => {
      await sweepSteps(services);
    },
  };
}
