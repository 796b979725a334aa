// The embedded scheduler (jobs rows): due times, leases, retries with backoff, dedupe keys, jobs written in the
// caller's transaction, the handler registry, the background runner, and claims racing on real PostgreSQL.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../schema';
import { claimJobs, MAX_JOB_ATTEMPTS, type EmbeddedQueue } from '../../lib/queue/embedded';
import type { JobHandlers, JobPayload } from '../../lib/queue/port';
import { drainJobs, startJobRunner } from '../../lib/queue/runner';
import type { TestEnv } from '../helpers/harness';
import { startWebhookEnv } from '../helpers/webhook_env';

let env: TestEnv;
let queue: EmbeddedQueue;
beforeAll(async () => {
  env = await startWebhookEnv();
  queue = env.services.queue as EmbeddedQueue;
});
afterAll(() => env.close());

const unique = (prefix: string) => `${prefix}.${Math.random().toString(36).slice(2)}`;
const jobsOf = (kind: string) => env.services.db.select().from(jobs).where(eq(jobs.kind, kind));

describe('embedded queue', () => {
  it('is the adapter without QStash configuration, and writes jobs in the caller’s transaction', async () => {
    expect(queue.kind).toBe('embedded');
    expect(queue.transactional).toBe(true);
    const kind = unique('tx');
    await env.services.db
      .transaction(async (tx) => {
        await queue.enqueue({ kind, payload: { a: 1 } }, { tx });
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await jobsOf(kind)).toHaveLength(0);
    await env.services.db.transaction((tx) => queue.enqueue({ kind, payload: { a: 1 } }, { tx }));
    expect(await jobsOf(kind)).toHaveLength(1);
  });

  it('runs a job only once it is due, through the handler registered for its kind', async () => {
    const kind = unique('due');
    const seen: JobPayload[] = [];
    const handlers: JobHandlers = { [kind]: async (p) => void seen.push(p) };
    await queue.enqueue({ kind, payload: { followup_id: 'f1' }, runAt: new Date(env.clock.now().getTime() + 3_600_000) });
    await drainJobs(env.services, handlers);
    expect(seen).toEqual([]);
    env.clock.advance(3_600_000);
    await drainJobs(env.services, handlers);
    expect(seen).toEqual([{ followup_id: 'f1' }]);
    const [row] = await jobsOf(kind);
    expect(row.doneAt).not.toBeNull();
    await drainJobs(env.services, handlers);
    expect(seen).toHaveLength(1);
  });

  it('retries a failing job with growing backoff and keeps it, closed with its error, after the last attempt', async () => {
    const kind = unique('fail');
    let calls = 0;
    const handlers: JobHandlers = {
      [kind]: async () => {
        calls++;
        throw new Error(`provider down #${calls}`);
      },
    };
    await queue.enqueue({ kind });
    await drainJobs(env.services, handlers);
    let [row] = await jobsOf(kind);
    expect(row).toMatchObject({ attempts: 1, doneAt: null, lastError: 'provider down #1', lockedUntil: null });
    expect(row.runAt.getTime() - env.clock.now().getTime()).toBeGreaterThan(1_000);
    for (let i = 0; i < MAX_JOB_ATTEMPTS + 2; i++) {
      env.clock.advance(16 * 60_000);
      await drainJobs(env.services, handlers);
    }
    [row] = await jobsOf(kind);
    expect(calls).toBe(MAX_JOB_ATTEMPTS);
    expect(row).toMatchObject({ attempts: MAX_JOB_ATTEMPTS, lastError: `provider down #${MAX_JOB_ATTEMPTS}` });
    expect(row.doneAt).not.toBeNull();
  });

  it('a job of an unknown kind is retried, not dropped (a newer process may know it)', async () => {
    const kind = unique('unknown');
    await queue.enqueue({ kind });
    await drainJobs(env.services, {});
    const [row] = await jobsOf(kind);
    expect(row).toMatchObject({ attempts: 1, doneAt: null });
    expect(row.lastError).toMatch(/no handler/);
  });

  it('leases a claimed job: nobody else gets it until the lease runs out (a killed runner loses nothing)', async () => {
    const kind = unique('lease');
    await queue.enqueue({ kind });
    const now = env.clock.now();
    const mine = (await claimJobs(env.services.db, { now, limit: 1000, leaseMs: 30_000 })).filter((j) => j.kind === kind);
    expect(mine).toHaveLength(1);
    const again = await claimJobs(env.services.db, { now: new Date(now.getTime() + 29_000), limit: 1000, leaseMs: 30_000 });
    expect(again.filter((j) => j.kind === kind)).toHaveLength(0);
    const later = await claimJobs(env.services.db, { now: new Date(now.getTime() + 30_000), limit: 1000, leaseMs: 30_000 });
    expect(later.filter((j) => j.kind === kind).map((j) => j.attempts)).toEqual([2]);
  });

  it('drops a second job with the same dedupe key, and runs identical jobs claimed together once', async () => {
    const kind = unique('dedupe');
    const runs: JobPayload[] = [];
    const handlers: JobHandlers = { [kind]: async (p) => void runs.push(p) };
    const key = unique('followup:42');
    await queue.enqueue({ kind, payload: { n: 1 }, dedupeKey: key });
    await queue.enqueue({ kind, payload: { n: 2 }, dedupeKey: key });
    await queue.enqueue([{ kind, payload: { same: true } }, { kind, payload: { same: true } }]);
    expect(await jobsOf(kind)).toHaveLength(3);
    await drainJobs(env.services, handlers);
    expect(runs).toEqual(expect.arrayContaining([{ n: 1 }, { same: true }]));
    expect(runs).toHaveLength(2);
    expect((await jobsOf(kind)).every((j) => j.doneAt !== null)).toBe(true);
  });

  it('the background runner wakes on enqueue instead of waiting for its poll, and stop() waits for running jobs', async () => {
    const kind = unique('wake');
    let release!: () => void;
    let stopRunner!: () => Promise<void>;
    const started = new Promise<void>((resolve) => {
      const handlers: JobHandlers = {
        [kind]: () => {
          resolve();
          return new Promise<void>((r) => (release = r));
        },
      };
      const runner = startJobRunner(env.services, handlers, { pollMs: 600_000 });
      stopRunner = runner.stop;
    });
    await new Promise((r) => setTimeout(r, 100)); // its first tick has found nothing
    await queue.enqueue({ kind });
    await started;
    let stopped = false;
    const stopping = stopRunner().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(stopped).toBe(false);
    release();
    await stopping;
    const [row] = await jobsOf(kind);
    expect(row.doneAt).not.toBeNull();
  });

  it('hands each due job to exactly one of many concurrent claimers', async () => {
    const kind = unique('race');
    await queue.enqueue(Array.from({ length: 60 }, (_, i) => ({ kind, payload: { i } })));
    const now = env.clock.now();
    const batches = await Promise.all(Array.from({ length: 8 }, () => claimJobs(env.services.db, { now, limit: 20, leaseMs: 60_000 })));
    const ids = batches.flat().filter((j) => j.kind === kind).map((j) => j.id);
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
    await env.services.db.execute(sql`update jobs set done_at = now() where kind = ${kind}`);
  });
});
