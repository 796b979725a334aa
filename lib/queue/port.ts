// The queue port: work that runs later or elsewhere (webhook deliveries and their retries, follow-ups due at a
// time). Two adapters, chosen from configuration only: QStash (a signed HTTP call to our own /jobs/run after the
// delay) and the embedded scheduler (rows in `jobs`, leased by a runner in this process).
//
// Delivery is at least once on both: a handler may run twice for one job (a crash after the work but before the
// job was marked done, a QStash retry), so handlers are idempotent and keep their real state in domain tables.
import type { Db } from '../db/types';
import type { Services } from '../services';

export type JobPayload = Record<string, unknown>;

export type JobInput = {
  /** Which handler runs it (the registry in functions/jobs/handlers.ts). */
  kind: string;
  payload?: JobPayload;
  /** Not before this time; now when absent. */
  runAt?: Date;
  /** A second job with the same key is dropped (embedded: while the first row exists; QStash: its dedup window). */
  dedupeKey?: string;
};

export interface Queue {
  /** 'none': a Worker without QStash settings (only the jobs Worker's cron sweep moves webhooks, once a minute). */
  readonly kind: 'embedded' | 'qstash' | 'none';
  /**
   * True when `enqueue({ tx })` writes the job in the caller's transaction, so it commits with the change that
   * made it. QStash cannot: its callers publish after commit and keep a sweep for publishes that failed.
   */
  readonly transactional: boolean;
  /** Schedules jobs. Throws when they could not be stored or published. */
  enqueue(jobs: JobInput | JobInput[], opts?: { tx?: Db }): Promise<void>;
  /**
   * "Work for `kind` may be waiting": asks for that kind to run soon with an empty payload. QStash publishes it;
   * the embedded queue wakes this process's runner, which runs such kinds on every tick anyway (and does nothing
   * when no runner lives in this process: the runner catches up when it starts).
   */
  poke(kind: string): Promise<void>;
}

export type JobContext = { services: Services; attempt: number };

/** Runs one job. Throwing asks for a retry later (embedded backoff, or QStash's own retry of a 5xx). */
export type JobHandler = (payload: JobPayload, ctx: JobContext) => Promise<void>;

export type JobHandlers = Readonly<Record<string, JobHandler>>;

/** The body QStash carries to /jobs/run. */
export type JobEnvelope = { kind: string; payload: JobPayload };
