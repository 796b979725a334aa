// CLOCK=sim (agency-operator.md §6): the service's "now" is a value stored in `sim_clock` and kept in memory, so
// `Clock.now()` stays synchronous. Only POST /admin/v1/sim/clock moves it (lib/clock/advance.ts); between two
// advances time stands still, which is what lets a test run weeks of plans in seconds and get the same answer twice.
import { sql } from 'drizzle-orm';
import type { Config } from '../config';
import { rows, type Db } from '../db/types';
import type { Clock } from '../limits/port';

export class SimClock implements Clock {
  readonly kind = 'sim' as const;
  private current: number;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(start: Date) {
    this.current = start.getTime();
  }

  now() {
    return new Date(this.current);
  }

  /** Moves the in-memory value; the advance persists it (saveSimClock) once the work due at that moment has run. */
  set(at: Date) {
    if (at.getTime() < this.current) throw new Error('the simulated clock never goes back');
    this.current = at.getTime();
  }

  /** One advance at a time: a second request waits for the first, so two callers never interleave their steps. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }
}

export const isSimClock = (clock: Clock): clock is SimClock => clock instanceof SimClock;

/**
 * The stored clock, or — on a database that never ran with CLOCK=sim — the wall time of this first start (so the
 * data a developer creates looks current, and outcomes still depend only on SIM_SEED and the steps taken).
 */
export async function loadSimClock(db: Db, firstStart: Date = new Date()): Promise<SimClock> {
  await db.execute(sql`insert into sim_clock (id, now, updated_at) values ('clock', ${firstStart.toISOString()}::timestamptz, now()) on conflict (id) do nothing`);
  const [row] = await rows<{ now: string | Date }>(db, sql`select now from sim_clock where id = 'clock'`);
  return new SimClock(new Date(row.now));
}

export async function saveSimClock(db: Db, at: Date) {
  await db.execute(sql`update sim_clock set now = ${at.toISOString()}::timestamptz, updated_at = now() where id = 'clock'`);
}

/**
 * Where CLOCK=sim may run. Simulated time moves only when someone advances it, so it belongs to one embedded
 * process: jobs rows it can run itself (QStash would deliver on real time), and never a Worker fleet in production.
 */
export function assertClockAllowed(config: Config, runtime: 'node' | 'worker') {
  if (config.CLOCK !== 'sim') return;
  if (runtime === 'worker') throw new Error('CLOCK=sim is for the embedded runtime (npm run dev, tests); Workers run on the wall clock');
  if (config.QSTASH_TOKEN) throw new Error('CLOCK=sim needs the embedded scheduler (jobs rows); unset QSTASH_TOKEN or use CLOCK=wall');
}
