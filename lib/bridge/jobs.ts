import { z } from 'zod';
import type { JobHandlers } from '../queue/port';
import { runTablePush, sweepTablePushes } from './push_job';
import { TABLE_PUSH_JOB, TABLE_PUSH_SWEEP_JOB } from './push_job_kind';

export { TABLE_PUSH_JOB, TABLE_PUSH_SWEEP_JOB };

const RunPayload = z.object({ push_id: z.uuid() });

/** The table-push kinds for the job registry (functions/jobs/handlers.ts): both queue adapters run them. */
export function tablePushJobHandlers(): JobHandlers {
  return {
    [TABLE_PUSH_JOB]: async (payload, { services }) => {
      const parsed = RunPayload.safeParse(payload);
      if (!parsed.success) throw new Error(`${TABLE_PUSH_JOB}: malformed payload`);
      await runTablePush(services, parsed.data.push_id);
    },
    [TABLE_PUSH_SWEEP_JOB]: async (_payload, { services }) => {
      await sweepTablePushes(services);
    },
  };
}
