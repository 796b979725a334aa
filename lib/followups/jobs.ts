import { z } from 'zod';
import type { JobHandlers } from '../queue/port';
import { runFollowup, sweepFollowups } from './send_due';
import { FOLLOWUP_SEND_JOB, FOLLOWUP_SWEEP_JOB } from './schedule';

export { FOLLOWUP_SEND_JOB, FOLLOWUP_SWEEP_JOB };

const SendPayload = z.object({ followup_id: z.uuid() });

/** The follow-up kinds for the job registry (functions/jobs/handlers.ts): both queue adapters run them. */
export function followupJobHandlers(): JobHandlers {
  return {
    [FOLLOWUP_SEND_JOB]: async (payload, { services }) => {
      const parsed = SendPayload.safeParse(payload);
      if (!parsed.success) throw new Error(`${FOLLOWUP_SEND_JOB}: malformed payload`);
      await runFollowup(services, parsed.data.followup_id);
    },
    [FOLLOWUP_SWEEP_JOB]: async (_payload, { services }) => {
      await sweepFollowups(services);
    },
  };
}
