// run_formula's two steps. The preview prices the run (cells × each column's credit_cost = the ceiling) and
// charges nothing; confirming stores the run and one item per lead and queues its first round, in the confirm's
// transaction. Credits are charged per round for cells actually written (run_round.ts), never at confirm: so the
// Preview's `credits` (what runTwoStep charges on confirm) is 0 and the tool shows the ceiling in the answer.
import { findClient } from '../agency/clients/view';
import type { Applied, Preview, TwoStepDef } from '../agency/confirm';
import type { AgencyCall } from '../agency/operation';
import { balanceOf } from '../credits/ledger';
import type { Db } from '../db/types';
import { CONFIRM_LARGE_ABOVE, planRun, type RunInput } from './run_plan';
import { ROUND_SIZE } from './run_round';
import { runView, type RunView } from './run_view';
import { insertFormulaRun } from './run_create';

export type RunFormulaPreview = {
  recipe_id: string;
  version: number;
  list: { kind: 'lead_ids' | 'segment' | 'import' | 'pool'; id: string | null; name: string | null };
  columns: { column_key: string; formula: string; name: string; kind: string; output_type: string; credit_cost: number; cells: number; already_filled: number; missing_inputs: number }[];
  leads: number;
  leads_considered: number;
  beyond_run: number;
  cells: number;
  credit_ceiling: number;
  balance: number;
  round_size: number;
  overwrite: boolean;
  sample_lead_ids: string[];
};

async function preview(call: AgencyCall, input: RunInput, db: Db): Promise<Preview<RunFormulaPreview>> {
  await findClient(db, call.auth.orgId, input.client_id);
  const plan = await planRun(db, call.auth.orgId, input);
  const balance = await balanceOf(db, call.auth.orgId);
  const p: RunFormulaPreview = {
    recipe_id: plan.recipeId,
    version: plan.version,
    list: plan.list,
    columns: plan.columns.map((c) => ({
      column_key: c.step.column_key,
      formula: c.def.ref,
      name: c.def.name,
      kind: c.def.kind,
      output_type: c.def.output_type,
      credit_cost: c.def.credit_cost,
      cells: c.cells,
      already_filled: c.already_filled,
      missing_inputs: c.missing_inputs,
    })),
    leads: plan.leadIds.length,
    leads_considered: plan.considered,
    beyond_run: plan.beyondRun,
    cells: plan.cells,
    credit_ceiling: plan.creditCeiling,
    balance,
    round_size: ROUND_SIZE,
    overwrite: input.overwrite === true,
    sample_lead_ids: plan.leadIds.slice(0, 20),
  };
  // The binding: a changed live version, column price or set of leads makes the confirm preview_stale.
  const state = { version: plan.version, columns: p.columns.map((c) => [c.column_key, c.formula, c.credit_cost, c.cells]), leads: plan.leadIds.join(',') };
  const base = { preview: p, state, credits: 0 };
  if (plan.leadIds.length === 0) {
    return { ...base, blockedBy: 'conflict', blockedMessage: 'nothing to run: every cell already holds a value (overwrite: true rewrites them) or the leads lack the inputs' };
  }
  if (plan.creditCeiling > CONFIRM_LARGE_ABOVE && input.confirm_large !== true) {
    return {
      ...base,
      blockedBy: 'confirm_large_required',
      blockedMessage: `this run may cost up to ${plan.creditCeiling} credits (above ${CONFIRM_LARGE_ABOVE}): repeat the preview with confirm_large: true`,
    };
  }
  return base;
}

/** The run and its items, and its first round queued (in the transaction when the queue can join it). */
async function apply(call: AgencyCall, input: RunInput, tx: Db, p: Preview<RunFormulaPreview>): Promise<Applied<{ run: RunView }>> {
  const only = p.preview.columns.length === 1 ? p.preview.columns[0] : null;
  const run = await insertFormulaRun(tx, call.services.queue, {
    orgId: call.auth.orgId,
    clientId: input.client_id,
    recipeId: input.recipe_id,
    recipeVersion: p.preview.version,
    formulaRef: only?.formula ?? null,
    columnKey: input.column_key ?? null,
    onlyEmpty: input.overwrite !== true,
    leadIds: (p.state as { leads: string }).leads.split(','),
    creditCap: p.preview.credit_ceiling,
    keyId: call.auth.keyId,
    actor: call.actor,
    now: call.now,
  });
  return {
    result: { run: runView(run) },
    audit: {
      action: 'formula_run.started',
      target: `run:${run.id}`,
      detail: { client_id: input.client_id, recipe_id: input.recipe_id, version: p.preview.version, columns: p.preview.columns.map((c) => c.column_key), leads: p.preview.leads, credit_ceiling: p.preview.credit_ceiling, list: p.preview.list },
    },
  };
}

export const runFormula: TwoStepDef<RunInput, RunFormulaPreview, { run: RunView }> = { tool: 'run_formula', preview, apply };
