import { and, eq, lt } from 'drizzle-orm';
import { z } from 'zod';
import { enrichRuns } from '../../schema';
import type { JobHandlers } from '../queue/port';
import type { Services } from '../services';
import { FORMULA_ROUND_JOB, FORMULA_SWEEP_JOB } from './run_job_kind';
import { runRound } from './run_round';

export { FORMULA_ROUND_JOB, FORMULA_SWEEP_JOB };

const RoundPayload = z.object({ run_id: z.uuid() });
/** A running run untouched this long lost its next round (a publish that failed, a job that gave up). */
const STALLED_MS = 10 * 60_000;

/** Queues a round for every running formula run that has not moved for a while. */
export async function sweepFormulaRuns(services: Services) {
  const cutoff = new Date(services.clock.now().getTime() - STALLED_MS);
  const stalled = await services.db
    .select({ id: enrichRuns.id, processed: enrichRuns.processed })
    .from(enrichRuns)
    .where(and(eq(enrichRuns.kind, 'formula'), eq(enrichRuns.status, 'running'), lt(enrichRuns.updatedAt, cutoff)))
    .limit(100);
  if (stalled.length) {
    await services.queue.enqueue(stalled.map((r) => ({ kind: FORMULA_ROUND_JOB, payload: { run_id: r.id }, dedupeKey: `${FORMULA_ROUND_JOB}:${r.id}:${r.processed}:sweep:${cutoff.getTime()}` })));
  }
}

/** The formula-run kinds for the job registry (functions/jobs/handlers.ts). */
export function formulaJobHandlers(): JobHandlers {
  return {
    [FORMULA_ROUND_JOB]: async (payload, { services }) => {
      const parsed = RoundPayload.safeParse(payload);
      if (!parsed.success) throw new Error(`${FORMULA_ROUND_JOB}: malformed payload`);
      await runRound(services, parsed.data.run_id, { actor: 'system' });
    },
    [FORMULA_SWEEP_JOB]: async (_payload, { services }) => {
      await sweepFormulaRuns(services);
    },
  };
}
