// One round of a formula run, in two phases.
//
// (1) Evaluate, holding no lock: read the run, its next ≤ ROUND_SIZE pending items and their leads, and evaluate the
//     run's columns on each (a lookup may call the enrichment port, a question the AI port: no transaction waits
//     on them, and stop_run never waits for a round).
// (2) Commit, in ONE transaction under the run's row lock: a run that is no longer `running` (stopped meanwhile)
//     commits nothing and charges nothing. Items still `pending` are this round's (a concurrent round or a retried
//     job that got there first leaves them non-pending: they are neither written nor charged again). The leads are
//     locked and re-checked (a cell filled meanwhile is left alone unless overwrite), the cells written with their
//     provenance, the pool column registered, and each written cell charged with chargeCredits under the reference
//     `run:<run_id>:<lead_id>:<column>` — unique, so even a path that slipped past the item claim cannot charge
//     twice. Credits are checked up front under the organization's row lock: a lead whose cells the balance (or the
//     key's daily limit, or the run's credit cap) cannot pay stays pending and the run waits (waiting_continue).
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { apiKeys, enrichRunItems, enrichRuns, poolColumns, poolLeads } from '../../schema';
import { writeAudit } from '../agency/audit';
import { creditsRemaining } from '../credits/balance';
import { chargeCredits } from '../credits/ledger';
import { rows, type Db } from '../db/types';
import { errorText } from '../log';
import type { PoolLeadRow } from '../pool/view';
import { EnrichmentRetryLater } from '../ports/enrichment/port';
import type { Services } from '../services';
import { evaluateDef, provenanceOf } from './evaluate';
import { isBlank, leadValue } from './fields';
import { FORMULA_ROUND_JOB } from './run_job_kind';
import { liveColumns } from './run_plan';
import type { RunRow } from './run_view';
import type { FormulaDef } from './types';
import type { ColumnStep } from '../recipes/schema';
import type { CustomValue } from '../../schema';

export const ROUND_SIZE = 100;

type Column = { step: ColumnStep; def: FormulaDef };
type LeadOutcome = {
  leadId: string;
  cells: { key: string; value: Exclude<CustomValue, null>; def: FormulaDef }[];
  status: 'written' | 'skipped' | 'empty' | 'failed';
  error?: string;
};

export type RoundResult = { run: RunRow | null; leads: number; written: number; credits: number; next: 'queued' | 'none' };

export type RoundOptions = {
  /** Who the audit row names: `system` for a queued round, the caller for `continue: true`. */
  actor: string;
  /** Queue the following round when leads remain (a queued round does; a test may step rounds by hand). */
  chain?: boolean;
  /** Evaluated cells pass through here before the commit (tests use it to stop a run mid-round). */
  beforeCommit?: () => Promise<void>;
};

export async function runRound(services: Services, runId: string, opts: RoundOptions): Promise<RoundResult> {
  const { db } = services;
  const now = services.clock.now();
  const [run] = await db.select().from(enrichRuns).where(eq(enrichRuns.id, runId));
  if (!run || run.kind !== 'formula' || run.status !== 'running') return { run: run ?? null, leads: 0, written: 0, credits: 0, next: 'none' };

  let columns: Column[];
  try {
    columns = (await liveColumns(db, run.orgId, run.clientId, run.recipeId!, run.columnKey, run.recipeVersion)).columns;
  } catch (err) {
    return finish(services, run, { status: 'failed', lastError: `the recipe cannot run any more: ${errorText(err)}` }, opts.actor, now);
  }
  const items = await db
    .select({ leadId: enrichRunItems.leadId })
    .from(enrichRunItems)
    .where(and(eq(enrichRunItems.runId, run.id), eq(enrichRunItems.status, 'pending')))
    .orderBy(asc(enrichRunItems.position))
    .limit(ROUND_SIZE);
  if (items.length === 0) return finish(services, run, { status: 'done', lastError: run.lastError }, opts.actor, now);
  const leads = await db
    .select()
    .from(poolLeads)
    .where(and(eq(poolLeads.orgId, run.orgId), eq(poolLeads.clientId, run.clientId), inArray(poolLeads.id, items.map((i) => i.leadId))));
  const byId = new Map(leads.map((l) => [l.id, l]));

  const outcomes: LeadOutcome[] = [];
  let retryAfterSec: number | null = null;
  for (const item of items) {
    const lead = byId.get(item.leadId);
    if (!lead) {
      outcomes.push({ leadId: item.leadId, cells: [], status: 'failed', error: 'the lead is no longer in the pool' });
      continue;
    }
    try {
      outcomes.push(await evaluateLead(services, run, columns, lead, now));
    } catch (err) {
      // The provider asked to wait: this lead and the rest of the round stay pending for a later round.
      if (err instanceof EnrichmentRetryLater) {
        retryAfterSec = err.retryAfterSec;
        break;
      }
      throw err;
    }
  }
  await opts.beforeCommit?.();
  return commitRound(services, run.id, columns, outcomes, { ...opts, now, retryAfterSec });
}

/** The run's columns on one lead, in recipe order: a later column reads what an earlier one just wrote. */
async function evaluateLead(services: Services, run: RunRow, columns: Column[], lead: PoolLeadRow, now: Date): Promise<LeadOutcome> {
  const working: PoolLeadRow = { ...lead, custom: { ...lead.custom } };
  const cells: LeadOutcome['cells'] = [];
  let skipped = 0;
  let failed: string | undefined;
  for (const { step, def } of columns) {
    if (run.onlyEmpty && !isBlank(leadValue(working, step.column_key))) continue;
    const cell = await evaluateDef(services, { db: services.db, orgId: run.orgId, clientId: run.clientId, now }, def, working);
    if (cell.status === 'written') {
      cells.push({ key: step.column_key, value: cell.value, def });
      working.custom[step.column_key] = cell.value;
    } else if (cell.status === 'skipped') skipped++;
    else if (cell.status === 'failed') failed = `${step.column_key}: ${cell.error}`;
  }
  const status = cells.length ? 'written' : failed ? 'failed' : skipped ? 'skipped' : 'empty';
  return { leadId: lead.id, cells, status, error: failed };
}

async function commitRound(
  services: Services,
  runId: string,
  columns: Column[],
  outcomes: LeadOutcome[],
  opts: RoundOptions & { now: Date; retryAfterSec: number | null },
): Promise<RoundResult> {
  const { now } = opts;
  const result = await services.db.transaction(async (tx) => {
    const [run] = await tx.select().from(enrichRuns).where(eq(enrichRuns.id, runId)).for('update');
    // Stopped (or finished) while this round evaluated: nothing it found is written or charged.
    if (!run || run.status !== 'running') return { run: run ?? null, leads: 0, written: 0, credits: 0, more: false, paused: false };
    const ids = outcomes.map((o) => o.leadId);
    const pending = new Set(
      ids.length
        ? (
            await tx
              .select({ leadId: enrichRunItems.leadId })
              .from(enrichRunItems)
              .where(and(eq(enrichRunItems.runId, run.id), eq(enrichRunItems.status, 'pending'), inArray(enrichRunItems.leadId, ids)))
          ).map((r) => r.leadId)
        : [],
    );
    const ours = outcomes.filter((o) => pending.has(o.leadId));
    const current = await lockLeads(tx, run, ours.filter((o) => o.cells.length).map((o) => o.leadId));

    // What this round may spend: the balance (org row locked until commit), the key's day, the run's cap.
    const costly = ours.some((o) => o.cells.some((c) => c.def.credit_cost > 0));
    const [keyRow] = run.keyId && costly ? await tx.select({ keyId: apiKeys.id, dailyCreditLimit: apiKeys.dailyCreditLimit }).from(apiKeys).where(eq(apiKeys.id, run.keyId)) : [];
    let budget = Number.POSITIVE_INFINITY;
    let budgetWhy = '';
    if (costly) {
      const [org] = await rows<{ credits: number }>(tx, sql`SELECT credits FROM organizations WHERE id = ${run.orgId}::uuid FOR UPDATE`);
      const limits: [number, string][] = [
        [Number(org?.credits ?? 0), 'insufficient_credits: the organization has no credits left for the next cells; add credits and continue the run'],
        [run.creditCap - run.credits, "the run reached its credit ceiling (the preview's credit_ceiling)"],
      ];
      if (keyRow) limits.push([await creditsRemaining(tx, keyRow, now), "daily_credit_limit_exceeded: the key's daily credit limit is spent; continue the run tomorrow"]);
      for (const [n, why] of limits) if (n < budget) [budget, budgetWhy] = [n, why];
    }

    const settled: { lead_id: string; status: string; credits: number }[] = [];
    const writes: { id: string; cells: Record<string, CustomValue>; prov: Record<string, unknown> }[] = [];
    const charges: { leadId: string; key: string; amount: number }[] = [];
    let spent = 0;
    let cut = false;
    for (const o of ours) {
      const fresh = current.get(o.leadId);
      // Filled by someone else since phase 1 (and not to be overwritten): left as it is, not charged.
      const cells = o.cells.filter((c) => fresh && (!run.onlyEmpty || isBlank((fresh[c.key] ?? null) as CustomValue)));
      const cost = cells.reduce((s, c) => s + c.def.credit_cost, 0);
      if (spent + cost > budget) {
        cut = true;
        break; // this lead and every later one stay pending
      }
      spent += cost;
      if (cells.length) {
        const source = (def: FormulaDef) => ({ source: provenanceOf(def), by: run.actor, at: now.toISOString() });
        writes.push({ id: o.leadId, cells: Object.fromEntries(cells.map((c) => [c.key, c.value])), prov: Object.fromEntries(cells.map((c) => [c.key, source(c.def)])) });
        for (const c of cells) if (c.def.credit_cost > 0) charges.push({ leadId: o.leadId, key: c.key, amount: c.def.credit_cost });
      }
      const status = cells.length ? 'written' : o.status === 'written' ? 'empty' : o.status;
      settled.push({ lead_id: o.leadId, status, credits: cost });
    }

    if (writes.length) {
      await tx.execute(sql`UPDATE pool_leads p SET custom = p.custom || v.cells, provenance = p.provenance || v.prov, updated_at = ${now.toISOString()}::timestamptz
        FROM jsonb_to_recordset(${JSON.stringify(writes)}::jsonb) AS v(id uuid, cells jsonb, prov jsonb)
        WHERE p.id = v.id AND p.id = any(${sql.param(writes.map((w) => w.id))}::uuid[]) AND p.org_id = ${run.orgId}::uuid AND p.client_id = ${run.clientId}::uuid`);
      const used = new Set(writes.flatMap((w) => Object.keys(w.cells)));
      const cols = columns.filter((c) => used.has(c.step.column_key));
      await tx
        .insert(poolColumns)
        .values(cols.map((c) => ({ clientId: run.clientId, orgId: run.orgId, key: c.step.column_key, type: c.def.output_type, createdBy: run.actor, createdAt: now, updatedAt: now })))
        .onConflictDoNothing();
    }
    let credits = 0;
    const key = keyRow ? { keyId: keyRow.keyId, dailyCreditLimit: keyRow.dailyCreditLimit } : null;
    for (const c of charges) {
      const charged = await chargeCredits(tx, { orgId: run.orgId, key, reference: `run:${run.id}:${c.leadId}:${c.key}`, amount: c.amount, reason: 'run_formula', now });
      if (charged.charged) credits += charged.amount;
    }
    if (settled.length) {
      await tx.execute(sql`UPDATE enrich_run_items i SET status = v.status, credits = v.credits
        FROM jsonb_to_recordset(${JSON.stringify(settled)}::jsonb) AS v(lead_id uuid, status text, credits int)
        WHERE i.run_id = ${run.id}::uuid AND i.lead_id = v.lead_id AND i.lead_id = any(${sql.param(settled.map((x) => x.lead_id))}::uuid[]) AND i.status = 'pending'`);
    }
    // Whether any lead is left, not how many: counting every pending item each round would make a run quadratic.
    const left = (await rows<{ one: number }>(tx, sql`SELECT 1 AS one FROM enrich_run_items WHERE run_id = ${run.id}::uuid AND status = 'pending' LIMIT 1`)).length;
    const written = writes.reduce((s, w) => s + Object.keys(w.cells).length, 0);
    const capReached = cut && budgetWhy.startsWith('the run reached');
    const status = left === 0 || capReached ? 'done' : cut ? 'waiting_continue' : 'running';
    const errors = settled.filter((s) => s.status === 'failed').length;
    const lastError = cut ? budgetWhy : errors ? ours.find((o) => o.error)?.error ?? run.lastError : run.lastError;
    const [after] = await tx
      .update(enrichRuns)
      .set({
        status,
        processed: run.processed + settled.length,
        written: run.written + written,
        skipped: run.skipped + settled.filter((s) => s.status === 'skipped').length,
        credits: run.credits + credits,
        lastError,
        updatedAt: now,
      })
      .where(eq(enrichRuns.id, run.id))
      .returning();
    await writeAudit(tx, {
      orgId: run.orgId,
      actor: opts.actor,
      action: 'formula_run.round',
      target: `run:${run.id}`,
      detail: { client_id: run.clientId, leads: settled.length, cells_written: written, failed: errors, run_status: status, ...(cut && { paused: budgetWhy }) },
      credits,
      at: now,
    });
    const more = status === 'running' && opts.chain !== false;
    if (more && services.queue.transactional) await enqueueNext(services, after, tx, opts.retryAfterSec, now);
    return { run: after, leads: settled.length, written, credits, more, paused: cut };
  });
  if (result.more && !services.queue.transactional && result.run) await enqueueNext(services, result.run, undefined, opts.retryAfterSec, now);
  return { run: result.run, leads: result.leads, written: result.written, credits: result.credits, next: result.more ? 'queued' : 'none' };
}

/** The round's leads with cells to write, locked until commit, by id → their custom values now. */
async function lockLeads(tx: Db, run: RunRow, ids: string[]) {
  if (ids.length === 0) return new Map<string, Record<string, CustomValue>>();
  const locked = await tx
    .select({ id: poolLeads.id, custom: poolLeads.custom })
    .from(poolLeads)
    .where(and(eq(poolLeads.orgId, run.orgId), eq(poolLeads.clientId, run.clientId), inArray(poolLeads.id, ids)))
    .orderBy(asc(poolLeads.id))
    .for('update');
  return new Map(locked.map((l) => [l.id, l.custom]));
}

async function enqueueNext(services: Services, run: RunRow, tx: Db | undefined, retryAfterSec: number | null, now: Date) {
  const runAt = retryAfterSec ? new Date(now.getTime() + retryAfterSec * 1000) : undefined;
  await services.queue.enqueue({ kind: FORMULA_ROUND_JOB, payload: { run_id: run.id }, runAt, dedupeKey: `${FORMULA_ROUND_JOB}:${run.id}:${run.processed}` }, tx ? { tx } : undefined);
}

async function finish(services: Services, run: RunRow, to: { status: 'done' | 'failed'; lastError: string | null }, actor: string, now: Date): Promise<RoundResult> {
  const after = await services.db.transaction(async (tx) => {
    const [row] = await tx
      .update(enrichRuns)
      .set({ status: to.status, lastError: to.lastError, updatedAt: now })
      .where(and(eq(enrichRuns.id, run.id), eq(enrichRuns.status, 'running')))
      .returning();
    if (row) await writeAudit(tx, { orgId: run.orgId, actor, action: `formula_run.${to.status}`, target: `run:${run.id}`, detail: { client_id: run.clientId, last_error: to.lastError }, at: now });
    return row ?? run;
  });
  return { run: after, leads: 0, written: 0, credits: 0, next: 'none' };
}
