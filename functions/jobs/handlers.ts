import type { JobHandlers } from '../../lib/queue/port';
import type { RunnerOptions } from '../../lib/queue/runner';
import { DISPATCH_JOB, SWEEP_JOB, webhookJobHandlers } from '../../lib/webhooks/jobs';
import { FOLLOWUP_SWEEP_JOB, followupJobHandlers } from '../../lib/followups/jobs';
import { TABLE_PUSH_SWEEP_JOB, tablePushJobHandlers } from '../../lib/bridge/jobs';
import { signalsJobHandlers } from '../../lib/signals/jobs';
import { FORMULA_SWEEP_JOB, formulaJobHandlers } from '../../lib/formulas/jobs';

/**
 * Every job kind the service runs, for both queue adapters (QStash → POST /jobs/run, and the embedded runner).
 * Another issue's scheduled step (a follow-up due at a time) adds its kind here, like a group in groups.ts.
 */
export const jobHandlers: JobHandlers = {
  ...webhookJobHandlers(),
  // Follow-ups and check-ins: `followup.send` at their due time, `followup.sweep` for any whose job went missing.
  ...followupJobHandlers(),
  // Leads out to a client's table tool: `table_push.run` per push (re-enqueued until done), `table_push.sweep`.
  ...tablePushJobHandlers(),
  // Signals runs: `signals.round` per round of a run, each queuing the next until the run is done.
  ...signalsJobHandlers(),
  // Formula runs: `formula_run.round` per round (each queues the next), `formula_run.sweep` for stalled runs.
  ...formulaJobHandlers(),
};

/**
 * What runs without being enqueued. `everyTick`: on each tick of the embedded runner (QStash deployments get these
 * as pokes instead). `periodic`: on an interval under Node, and on every run of the jobs Worker's once-a-minute cron
 * on Workers; a kind that sweeps for its own due work (follow-ups) goes here too.
 */
export const jobSchedule: RunnerOptions = {
  everyTick: [DISPATCH_JOB],
  periodic: [
    { kind: SWEEP_JOB, everyMs: 60_000 },
    { kind: FOLLOWUP_SWEEP_JOB, everyMs: 60_000 },
    { kind: TABLE_PUSH_SWEEP_JOB, everyMs: 60_000 },
    { kind: FORMULA_SWEEP_JOB, everyMs: 60_000 },
  ],
};
