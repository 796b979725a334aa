// The embedded scheduler's runner (Node only): keeps up to `concurrency` leased jobs running, wakes on
// enqueue/poke, polls otherwise, and runs the periodic kinds (the webhook sweep) on their interval. With the QStash
// adapter jobs arrive over HTTP at /jobs/run instead, and the runner only runs the periodic kinds.
import type { Services } from '../services';
import { claimJobs, completeJobs, failJob, type ClaimedJob, type EmbeddedQueue } from './embedded';
import type { JobHandlers, Queue } from './port';
import { errorText } from '../log';
import { runHandler } from './run';

export type RunnerOptions = {
  /** Jobs in flight at once. */
  concurrency?: number;
  /** How long a claimed job is ours; after that another runner (or this one after a restart) takes it over. */
  leaseMs?: number;
  /** Idle poll interval. */
  pollMs?: number;
  /** Kinds run with an empty payload on every tick (and on every poke): the webhook dispatcher. */
  everyTick?: readonly string[];
  /** Kinds run with an empty payload on an interval, first right at start (a restart catches up at once). */
  periodic?: readonly { kind: string; everyMs: number }[];
};

const DEFAULTS = { concurrency: 4, leaseMs: 60_000, pollMs: 1_000 };

const isEmbedded = (q: Queue): q is EmbeddedQueue => q.kind === 'embedded' && 'onWake' in q;

export type JobRunner = { stop(): Promise<void> };

export function startJobRunner(services: Services, handlers: JobHandlers, opts: RunnerOptions = {}): JobRunner {
  const { db, clock, log } = services;
  const { concurrency, leaseMs, pollMs } = { ...DEFAULTS, ...opts };
  const queue = services.queue;
  const embedded = isEmbedded(queue);
  const inFlight = new Set<Promise<void>>();
  const lastPeriodic = new Map<string, number>();
  let stopped = false;
  let pumping = false;
  let again = false;
  let tickWanted = true;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const kick = () => {
    if (!stopped) void pump();
  };
  const unsubscribe = embedded
    ? queue.onWake(() => {
        tickWanted = true;
        kick();
      })
    : () => undefined;

  const runKind = (kind: string) =>
    runHandler(handlers, kind, {}, { services, attempt: 1 }).catch((err) => log.error('scheduled job failed', { kind, error: errorText(err) }));

  async function pump() {
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    try {
      do {
        again = false;
        for (const p of opts.periodic ?? []) {
          if (stopped || Date.now() - (lastPeriodic.get(p.kind) ?? -Infinity) < p.everyMs) continue;
          lastPeriodic.set(p.kind, Date.now());
          await runKind(p.kind);
        }
        if (!embedded) continue;
        if (tickWanted) {
          tickWanted = false;
          for (const kind of opts.everyTick ?? []) if (!stopped) await runKind(kind);
        }
        while (!stopped && inFlight.size < concurrency) {
          const claimed = await claimJobs(db, { now: clock.now(), limit: concurrency - inFlight.size, leaseMs });
          if (claimed.length === 0) break;
          for (const group of coalesce(claimed)) {
            const run: Promise<void> = runClaimed(services, handlers, group).finally(() => {
              inFlight.delete(run);
              tickWanted = true; // a job may have written events (a follow-up send): dispatch them now
              kick();
            });
            inFlight.add(run);
          }
        }
      } while (again && !stopped);
    } catch (err) {
      log.error('job runner tick failed', { error: errorText(err) });
    } finally {
      pumping = false;
    }
    if (!stopped) {
      clearTimeout(timer);
      timer = setTimeout(() => {
        tickWanted = true;
        kick();
      }, pollMs);
      timer.unref?.();
    }
  }

  kick();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      unsubscribe();
      await Promise.allSettled([...inFlight]);
    },
  };
}

/**
 * Runs every due job (and the tick kinds) until none is left: for tests, benchmarks and scripts that want the
 * embedded scheduler's work done now instead of by the background runner. Returns how many jobs ran.
 */
export async function drainJobs(services: Services, handlers: JobHandlers, opts: { everyTick?: readonly string[]; leaseMs?: number; maxRounds?: number } = {}) {
  let ran = 0;
  for (let round = 0; round < (opts.maxRounds ?? 1_000); round++) {
    for (const kind of opts.everyTick ?? []) await runHandler(handlers, kind, {}, { services, attempt: 1 });
    const claimed = await claimJobs(services.db, { now: services.clock.now(), limit: 50, leaseMs: opts.leaseMs ?? DEFAULTS.leaseMs });
    if (claimed.length === 0) return ran;
    await Promise.all(coalesce(claimed).map((group) => runClaimed(services, handlers, group)));
    ran += claimed.length;
  }
  return ran;
}

/** Identical jobs (same kind and payload) claimed together run once: handlers are idempotent anyway. */
function coalesce(jobs: ClaimedJob[]): ClaimedJob[][] {
  const groups = new Map<string, ClaimedJob[]>();
  for (const j of jobs) {
    const key = `${j.kind}\u0000${JSON.stringify(j.payload)}`;
    groups.set(key, [...(groups.get(key) ?? []), j]);
  }
  return [...groups.values()];
}

async function runClaimed(services: Services, handlers: JobHandlers, group: ClaimedJob[]) {
  const [job] = group;
  const { db, clock, log } = services;
  try {
    await runHandler(handlers, job.kind, job.payload, { services, attempt: job.attempts });
  } catch (err) {
    const error = errorText(err);
    log.warn('job failed; will retry', { kind: job.kind, jobId: job.id, attempt: job.attempts, error });
    for (const j of group) await failJob(db, j, error, clock.now()).catch(() => undefined); // the lease expires instead
    return;
  }
  // If this write is lost the lease runs out and the job runs again: at least once, never lost.
  await completeJobs(
    db,
    group.map((j) => j.id),
    clock.now(),
  ).catch((err) => log.warn('could not mark job done; it will run again', { kind: job.kind, error: errorText(err) }));
}
