import { and, eq, lt } from 'drizzle-orm';
import { z } from 'zod';
import { enrichRuns } from '../../schema';
import type { JobHandlers } from '../queue/port';
import type { Services } from '../services';
import { SIGNALS_ROUND_JOB } from '../signals/job_kind';
import { FORMULA_ROUND_JOB, FORMULA_SWEEP_JOB } from './run_job_kind';
import { runRound } from './run_round';

export { FORMULA_ROUND_JOB, FORMULA_SWEEP_JOB };

const RoundPayload = z.object({ run_id: z.uuid() });
/** A running run untouched this long lost its next round (a publish that failed, a job that gave up). */
const STALLED_MS = 10 * 60_000;

/** Queues a round for every running run (formulas or signals) that has not moved for a while. */
export async function sweepStalledRuns(services: Services) {
  const cutoff = new Date(services.clock.now().getTime() - STALLED_MS);
  const stalled = await services.db
    .select({ id: enrichRuns.id, orgId: enrichRuns.orgId, kind: enrichRuns.kind, processed: enrichRuns.processed })
    .from(enrichRuns)
    .where(and(eq(enrichRuns.status, 'running'), lt(enrichRuns.updatedAt, cutoff)))
    .limit(100);
  if (stalled.length) {
    // Signals runs share the table and the failure mode (a lost publish), so one sweep serves both kinds.
    await services.queue.enqueue(
      stalled.map((r) => {
        const kind = r.kind === 'signals' ? SIGNALS_ROUND_JOB : FORMULA_ROUND_JOB;
        const payload = r.kind === 'signals' ? { run_id: r.id, org_id: r.orgId } : { run_id: r.id };
        return { kind, payload, dedupeKey: `${kind}:${r.id}:${r.processed}:sweep:${cutoff.getTime()}` };
      }),
    );
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
      await sweepStalledRuns(services);
    },
  };
}
