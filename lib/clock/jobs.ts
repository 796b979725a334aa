import { z } from 'zod';
import type { JobHandlers } from '../queue/port';
import type { Services } from '../services';
import { isSimClock } from './sim';
import { slotAtOrBefore, tick, ticks } from './ticks';

export const CLOCK_TICKS_JOB = 'clock.ticks';
export const CLOCK_TICK_JOB = 'clock.tick';

const TickPayload = z.object({ name: z.string().min(1), at: z.iso.datetime() });

/**
 * Under the wall clock (periodic, every minute): asks for each tick's latest slot once. The dedupe key makes a
 * slot one job however often this runs (embedded: the jobs row; QStash: the deduplication id); a process that was
 * down catches up the latest slot only, which is what a snapshot or a daily planner wants. Under CLOCK=sim the
 * advance runs ticks itself, so this does nothing.
 */
export async function enqueueDueTicks(services: Services) {
  if (isSimClock(services.clock)) return 0;
  const now = services.clock.now();
  const jobs = ticks().map((t) => {
    const at = slotAtOrBefore(t, now);
    return { kind: CLOCK_TICK_JOB, payload: { name: t.name, at: at.toISOString() }, runAt: at, dedupeKey: `tick:${t.name}:${at.getTime()}` };
  });
  if (jobs.length > 0) await services.queue.enqueue(jobs);
  return jobs.length;
}

export function clockJobHandlers(): JobHandlers {
  return {
    [CLOCK_TICKS_JOB]: async (_payload, { services }) => {
      await enqueueDueTicks(services);
    },
    [CLOCK_TICK_JOB]: async (payload, { services }) => {
      const p = TickPayload.safeParse(payload);
      if (!p.success) throw new Error(`${CLOCK_TICK_JOB}: malformed payload`);
      const t = tick(p.data.name);
      // A newer process may know it: throwing retries (and a removed tick's job dies after its attempts).
      if (!t) throw new Error(`${CLOCK_TICK_JOB}: no tick named "${p.data.name}"`);
      await t.fn(services, new Date(p.data.at));
    },
  };
}
