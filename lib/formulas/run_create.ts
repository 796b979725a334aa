// A formula run, created by run_formula's confirm or by a plan's run_formula step: the run row, one item per lead,
// and its first round queued. The embedded queue joins the caller's transaction; QStash cannot, so its first round
// is published after commit (publishFirstRound), and the stalled-run sweep catches a publish that was lost.
import { sql } from 'drizzle-orm';
import { enrichRuns } from '../../schema';
import type { Db } from '../db/types';
import type { Queue } from '../queue/port';
import { FORMULA_ROUND_JOB } from './run_job_kind';
import type { RunRow } from './run_view';

export type NewFormulaRun = {
  orgId: string;
  clientId: string;
  recipeId: string;
  /** The version the run was decided on: its rounds keep running it. */
  recipeVersion: number;
  formulaRef: string | null;
  columnKey: string | null;
  onlyEmpty: boolean;
  leadIds: readonly string[];
  creditCap: number;
  keyId: string | null;
  actor: string;
  now: Date;
};

const firstRound = (runId: string) => ({ kind: FORMULA_ROUND_JOB, payload: { run_id: runId }, dedupeKey: `${FORMULA_ROUND_JOB}:${runId}:0` });

export async function insertFormulaRun(tx: Db, queue: Queue, r: NewFormulaRun): Promise<RunRow> {
  const [run] = await tx
    .insert(enrichRuns)
    .values({
      orgId: r.orgId,
      clientId: r.clientId,
      kind: 'formula',
      recipeId: r.recipeId,
      recipeVersion: r.recipeVersion,
      formulaRef: r.formulaRef,
      columnKey: r.columnKey,
      onlyEmpty: r.onlyEmpty,
      status: 'running',
      total: r.leadIds.length,
      creditCap: r.creditCap,
      keyId: r.keyId,
      actor: r.actor,
      createdAt: r.now,
      updatedAt: r.now,
    })
    .returning();
  // One statement per 2,000 items: a 10,000-lead run is five round trips, not ten thousand.
  for (let i = 0; i < r.leadIds.length; i += 2000) {
    const chunk = r.leadIds.slice(i, i + 2000);
    await tx.execute(sql`INSERT INTO enrich_run_items (run_id, lead_id, position)
      SELECT ${run.id}::uuid, id::uuid, ord::int + ${i - 1}::int FROM unnest(${sql.param(chunk)}::uuid[]) WITH ORDINALITY AS t(id, ord)`);
  }
  if (queue.transactional) await queue.enqueue(firstRound(run.id), { tx });
  return run;
}

/** After the creating transaction committed: the first round for a queue that could not join it. */
export async function publishFirstRound(queue: Queue, runId: string): Promise<void> {
  if (!queue.transactional) await queue.enqueue(firstRound(runId));
}
