// The embedded scheduler's storage: jobs are rows in `jobs`. A runner claims due rows by setting a lease
// (`locked_until`) in one atomic statement (FOR UPDATE SKIP LOCKED), so several runners never take the same job,
// and a runner killed mid-job loses nothing: its lease runs out and the job is claimed again.
import { sql } from 'drizzle-orm';
import { jobs } from '../../schema';
import { rows, type Db } from '../db/types';
import type { Clock } from '../limits/port';
import type { JobInput, JobPayload, Queue } from './port';

/** A job that failed this many times is kept (done_at set, last_error kept) but not tried again. */
export const MAX_JOB_ATTEMPTS = 10;

export type ClaimedJob = { id: string; kind: string; payload: JobPayload; attempts: number };

export type EmbeddedQueue = Queue & {
  /** The runner of this process registers here to be woken by enqueue/poke; returns the unsubscribe. */
  onWake(fn: () => void): () => void;
};

export function createEmbeddedQueue(db: Db, clock: Clock): EmbeddedQueue {
  const wakers = new Set<() => void>();
  const wake = () => {
    for (const w of wakers) w();
  };
  return {
    kind: 'embedded',
    transactional: true,
    async enqueue(input, opts = {}) {
      const list = Array.isArray(input) ? input : [input];
      if (list.length === 0) return;
      await insertJobs(opts.tx ?? db, list, clock.now());
      // Inside a transaction the rows are invisible until commit; the caller's runner loop picks them up next.
      if (!opts.tx) wake();
    },
    async poke() {
      wake();
    },
    onWake(fn) {
      wakers.add(fn);
      return () => wakers.delete(fn);
    },
  };
}

async function insertJobs(db: Db, list: JobInput[], now: Date) {
  const values = list.map((j) => ({ kind: j.kind, payload: j.payload ?? {}, runAt: j.runAt ?? now, dedupeKey: j.dedupeKey ?? null, createdAt: now }));
  // A repeated dedupe key is dropped, not an error.
  await db.insert(jobs).values(values).onConflictDoNothing();
}

/** Leases up to `limit` due jobs; `attempts` counts this try. */
export async function claimJobs(db: Db, opts: { now: Date; limit: number; leaseMs: number }): Promise<ClaimedJob[]> {
  const now = opts.now.toISOString();
  const until = new Date(opts.now.getTime() + opts.leaseMs).toISOString();
  return rows<ClaimedJob>(
    db,
    sql`update jobs set locked_until = ${until}::timestamptz, attempts = attempts + 1
        where id in (
          select id from jobs
          where done_at is null and run_at <= ${now}::timestamptz and (locked_until is null or locked_until <= ${now}::timestamptz)
          order by run_at
          limit ${opts.limit}
          for update skip locked)
        returning id, kind, payload, attempts`,
  );
}

export async function completeJobs(db: Db, ids: string[], now: Date) {
  if (ids.length === 0) return;
  await db.execute(
    sql`update jobs set done_at = ${now.toISOString()}::timestamptz, locked_until = null, last_error = null
        where id in (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
  );
}

/** Backs off 2^attempts seconds (at most 15 minutes); after MAX_JOB_ATTEMPTS the job is closed with its error. */
export async function failJob(db: Db, job: ClaimedJob, error: string, now: Date) {
  const retryAt = new Date(now.getTime() + Math.min(2 ** job.attempts * 1000, 15 * 60_000)).toISOString();
  const dead = job.attempts >= MAX_JOB_ATTEMPTS;
  await db.execute(
    sql`update jobs set locked_until = null, run_at = ${retryAt}::timestamptz, last_error = ${error.slice(0, 1000)},
        done_at = ${dead ? now.toISOString() : null}::timestamptz
        where id = ${job.id}::uuid`,
  );
}

/** Finished jobs are kept a week for inspection, then removed. */
export async function pruneJobs(db: Db, now: Date) {
  const cutoff = new Date(now.getTime() - 7 * 86_400_000).toISOString();
  await db.execute(sql`delete from jobs where done_at < ${cutoff}::timestamptz`);
}
