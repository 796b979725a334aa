// get_run (with `continue: true`: the next round now) and stop_run. Another client's or organization's run is
// not_found. Stopping takes the run's row lock, which a round's commit also takes: a round that evaluated before
// the stop finds the run stopped when it commits, and writes and charges nothing.
import { and, eq, inArray } from 'drizzle-orm';
import { enrichRuns } from '../../schema';
import { writeAudit } from '../agency/audit';
import { findClient } from '../agency/clients/view';
import { gate } from '../agency/gate';
import type { AgencyCall } from '../agency/operation';
import type { Db } from '../db/types';
import { ApiError, notFound } from '../errors';
import { continueSignalsRun } from '../signals/continue';
import { runRound } from './run_round';
import { isFinal, runView, type RunRow } from './run_view';

async function findRun(db: Db, call: AgencyCall, clientId: string, runId: string, lock = false): Promise<RunRow> {
  await findClient(db, call.auth.orgId, clientId);
  const q = db
    .select()
    .from(enrichRuns)
    .where(and(eq(enrichRuns.id, runId), eq(enrichRuns.orgId, call.auth.orgId), eq(enrichRuns.clientId, clientId)));
  const [run] = lock ? await q.for('update') : await q;
  if (!run) throw notFound('run');
  return run;
}

export async function getRun(call: AgencyCall, input: { client_id: string; run_id: string; continue?: boolean }) {
  if (input.continue) return continueRun(call, input);
  return { run: runView(await findRun(call.services.db, call, input.client_id, input.run_id)) };
}

/** Runs the next round now (and queues the following ones): a paused run (waiting_continue) resumes. Needs W. */
export async function continueRun(call: AgencyCall, input: { client_id: string; run_id: string }) {
  // get_run is a read tool; its continue is a write, so it passes the write gate here (insufficient_scope names W).
  gate({ scope: 'agency.write', studio: true, write: true }, call.auth);
  // One get_run for both kinds of run: a signals run continues through its own round.
  const seen = await findRun(call.services.db, call, input.client_id, input.run_id);
  if (seen.kind === 'signals') {
    if (isFinal(seen.status)) throw new ApiError('conflict', `the run is ${seen.status}; run_signals starts a new one`, { body: { run: runView(seen) } });
    const report = await continueSignalsRun(call, input.client_id, input.run_id);
    return { run: runView(report.run ?? seen), round: { leads: report.leads, cells_written: report.written, credits: report.credits } };
  }
  const run = await call.services.db.transaction(async (tx) => {
    const row = await findRun(tx, call, input.client_id, input.run_id, true);
    if (isFinal(row.status)) throw new ApiError('conflict', `the run is ${row.status}; run_formula starts a new one`, { body: { run: runView(row) } });
    if (row.status !== 'waiting_continue') return row;
    const [resumed] = await tx.update(enrichRuns).set({ status: 'running', lastError: null, updatedAt: call.now }).where(eq(enrichRuns.id, row.id)).returning();
    await writeAudit(tx, { orgId: call.auth.orgId, actor: call.actor, action: 'formula_run.continued', target: `run:${row.id}`, detail: { client_id: row.clientId }, at: call.now });
    return resumed;
  });
  const round = await runRound(call.services, run.id, { actor: call.actor });
  return { run: runView(round.run ?? run), round: { leads: round.leads, cells_written: round.written, credits: round.credits } };
}

export async function stopRun(call: AgencyCall, input: { client_id: string; run_id: string }) {
  const { db } = call.services;
  return db.transaction(async (tx) => {
    const run = await findRun(tx, call, input.client_id, input.run_id, true);
    if (isFinal(run.status)) return { run: runView(run), stopped: false };
    const [stopped] = await tx
      .update(enrichRuns)
      .set({ status: 'stopped', updatedAt: call.now })
      .where(and(eq(enrichRuns.id, run.id), inArray(enrichRuns.status, ['previewed', 'running', 'waiting_continue'])))
      .returning();
    await writeAudit(tx, {
      orgId: call.auth.orgId,
      actor: call.actor,
      action: 'formula_run.stopped',
      target: `run:${run.id}`,
      detail: { client_id: run.clientId, processed: run.processed, total: run.total, written: run.written, credits: run.credits },
      at: call.now,
    });
    return { run: runView(stopped), stopped: true };
  });
}
