import type { JobHandlers } from '../../lib/queue/port';
import type { RunnerOptions } from '../../lib/queue/runner';
import { DISPATCH_JOB, SWEEP_JOB, webhookJobHandlers } from '../../lib/webhooks/jobs';
import { FOLLOWUP_SWEEP_JOB, followupJobHandlers } from '../../lib/followups/jobs';
import { TABLE_PUSH_SWEEP_JOB, tablePushJobHandlers } from '../../lib/bridge/jobs';
import { signalsJobHandlers } from '../../lib/signals/jobs';
import { FORMULA_SWEEP_JOB, formulaJobHandlers } from '../../lib/formulas/jobs';
import { PLAN_SWEEP_JOB, planJobHandlers } from '../../lib/plans/jobs';
import { CLOCK_TICKS_JOB, clockJobHandlers } from '../../lib/clock/jobs';
import { registerCourseTick } from '../../lib/course/tick';
import { registerInfraTicks } from '../../lib/infra/ticks';
import { registerSequencerTick } from '../../lib/campaigns_studio/sequencer_tick';
import { registerReturnDismissedTick } from '../../lib/plans/dismiss';
import { WEB_SWEEP_JOB, webSweepJobHandlers } from '../../lib/web/sweep';

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
  // Plan steps: `plan.step` at each step's due time, `plan.sweep` for missed, expired or not-yet-published ones.
  ...planJobHandlers(),
  // Registered ticks (lib/clock/ticks.ts) under the wall clock: `clock.ticks` asks for due slots, `clock.tick` runs one.
  ...clockJobHandlers(),
  ...webSweepJobHandlers(), // `web.sweep`: used/expired sign-in links after a day, ended portal/desk sessions after a week
};

// Ticks (lib/clock/ticks.ts) are registered here, beside every job kind: each process that runs jobs (the embedded
// runner, the jobs Worker, the simulated clock's advance) loads this file, so each runs every tick.
registerCourseTick(); // the daily catch-up planner, hourly, for organizations at 07:xx local time
registerInfraTicks(); // each organization's mailbox day (hourly, after its local midnight) and the 10-minute infrastructure snapshot
registerReturnDismissedTick(); // dismissed plans come back when their days are up
registerSequencerTick(); // the simulated sequencer's day per organization (hourly, from 09:00 local) and its replies into the core ingestion

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
    { kind: PLAN_SWEEP_JOB, everyMs: 60_000 },
    { kind: CLOCK_TICKS_JOB, everyMs: 60_000 },
    { kind: WEB_SWEEP_JOB, everyMs: 3_600_000 },
  ],
};
