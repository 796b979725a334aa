import type { Db } from '../db/types';
import { errorText, type Logger } from '../log';
import type { Queue } from '../queue/port';

export const FOLLOWUP_SEND_JOB = 'followup.send';
export const FOLLOWUP_SWEEP_JOB = 'followup.sweep';

/**
 * Asks the queue port to run a follow-up at `runAt`: a delayed QStash message in production, a jobs row for the
 * embedded scheduler otherwise. One job per (follow-up, time): scheduling the same try twice is dropped.
 * With a transactional queue the job commits with the change that planned it; QStash publishes after the commit,
 * and a publish that fails is caught up by the sweep (planned rows whose next try is overdue).
 */
export async function scheduleFollowup(queue: Queue, followupId: string, runAt: Date, opts: { tx?: Db } = {}) {
  // Inside a transaction only a transactional queue may write: a QStash message published before the commit could
  // run before the row exists. Such callers schedule again after the commit (scheduleAfterCommit).
  if (opts.tx && !queue.transactional) return;
  const job = { kind: FOLLOWUP_SEND_JOB, payload: { followup_id: followupId }, runAt, dedupeKey: `followup:${followupId}:${runAt.getTime()}` };
  await queue.enqueue(job, opts);
}

/** The same after the commit, for a queue that cannot join the transaction; a failed publish is left to the sweep. */
export async function scheduleAfterCommit(queue: Queue, log: Logger, f: { id: string; nextAttemptAt: Date | null }) {
  if (queue.transactional || !f.nextAttemptAt) return;
  await scheduleFollowup(queue, f.id, f.nextAttemptAt).catch((err) => log.warn('follow-up not scheduled; the sweep will run it', { followupId: f.id, error: errorText(err) }));
}
