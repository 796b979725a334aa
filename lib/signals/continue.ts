// get_run's `continue: true` for a signals run (the formulas helper's get_run dispatches here by run kind): a run
// held for credits (waiting_continue) runs again, and one round runs now, in the caller's name, whatever the queue.
import { and, eq } from 'drizzle-orm';
import { enrichRuns } from '../../schema';
import type { AgencyCall } from '../agency/operation';
import { ApiError, notFound } from '../errors';
import { runSignalsRound, type RoundReport } from './round';

export async function continueSignalsRun(call: AgencyCall, clientId: string, runId: string): Promise<RoundReport> {
  const orgId = call.auth.orgId;
  const [run] = await call.services.db
    .update(enrichRuns)
    .set({ status: 'running', lastError: null, updatedAt: call.now })
    .where(and(eq(enrichRuns.id, runId), eq(enrichRuns.orgId, orgId), eq(enrichRuns.clientId, clientId), eq(enrichRuns.kind, 'signals'), eq(enrichRuns.status, 'waiting_continue')))
    .returning();
  if (!run) {
    const [seen] = await call.services.db
      .select()
      .from(enrichRuns)
      .where(and(eq(enrichRuns.id, runId), eq(enrichRuns.orgId, orgId), eq(enrichRuns.clientId, clientId), eq(enrichRuns.kind, 'signals')));
    if (!seen) throw notFound('run');
    if (seen.status !== 'running') throw new ApiError('conflict', `the run is ${seen.status}; nothing to continue`);
  }
  return runSignalsRound(call.services, { orgId, runId, actor: call.actor, now: call.now, queueNext: true });
}
