import { and, inArray } from 'drizzle-orm';
import { planSteps } from '../../schema';
import type { Db } from '../db/types';
import { isPending, type StepRow } from './rows';
import { unscheduleSteps } from './schedule';

/**
 * Takes every step that has not run yet off the schedule and back to `waiting`, so nothing of the plan runs until
 * someone approves it again (a change, a new step, a dismissal). A step that is running finishes; a job that
 * arrives later for an unscheduled step finds nothing to do.
 */
export async function unapproveSteps(tx: Db, steps: StepRow[]): Promise<string[]> {
  const scheduled = steps.filter((s) => s.status === 'scheduled').map((s) => s.id);
  if (scheduled.length) await unscheduleSteps(tx, scheduled);
  const pending = steps.filter(isPending).map((s) => s.id);
  if (pending.length) {
    await tx
      .update(planSteps)
      .set({ status: 'waiting', dueAt: null })
      .where(and(inArray(planSteps.id, pending), inArray(planSteps.status, ['waiting', 'approved', 'scheduled'])));
  }
  return scheduled;
}

/** Pause: scheduled steps come off the schedule but stay approved, so resume needs no new approval. */
export async function holdSteps(tx: Db, steps: StepRow[]): Promise<string[]> {
  const scheduled = steps.filter((s) => s.status === 'scheduled').map((s) => s.id);
  if (scheduled.length) {
    await unscheduleSteps(tx, scheduled);
    // Whatever status unscheduling leaves, a held step is approved: resume schedules it without a new approval.
    await tx.update(planSteps).set({ status: 'approved' }).where(and(inArray(planSteps.id, scheduled), inArray(planSteps.status, ['waiting', 'approved', 'scheduled'])));
  }
  return scheduled;
}
