import { z } from 'zod';
import type { JobHandlers } from '../queue/port';
import { SIGNALS_ROUND_JOB } from './job_kind';
import { runSignalsRound } from './round';

export { SIGNALS_ROUND_JOB };

const RoundPayload = z.object({ run_id: z.uuid(), org_id: z.uuid() });

/** The signals-run kind for the job registry (functions/jobs/handlers.ts): each round queues the next. */
export function signalsJobHandlers(): JobHandlers {
  return {
    [SIGNALS_ROUND_JOB]: async (payload, { services }) => {
      const parsed = RoundPayload.safeParse(payload);
      if (!parsed.success) throw new Error(`${SIGNALS_ROUND_JOB}: malformed payload`);
      await runSignalsRound(services, { orgId: parsed.data.org_id, runId: parsed.data.run_id, actor: 'system', now: services.clock.now(), queueNext: true });
    },
  };
}
