// What a formula run will do, read without writing: the recipe's live column steps (one column or all of them),
// the leads (lead_ids, a list — a saved segment or an import — or the whole pool), and per lead and column whether
// the cell will be evaluated, is already filled, or lacks its inputs. The preview prices it; the confirm stores it.
import { and, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import { leadImports, poolLeads, segments } from '../../schema';
import type { Db } from '../db/types';
import { ApiError, notFound } from '../errors';
import { leadFilterWhere, LeadFilterSchema, poolOrder } from '../pool/filters';
import type { PoolLeadRow } from '../pool/view';
import { loadRecipe, versionDefinitions } from '../recipes/load';
import { isColumnStep, type ColumnStep } from '../recipes/schema';
import { defOfStep } from './evaluate';
import { isBlank, leadValue, missingInputs } from './fields';
import type { FormulaDef } from './types';

/** A run takes at most this many leads (the rest of a bigger pool waits for the next run). */
export const MAX_RUN_LEADS = 10_000;
/** Above this credit ceiling a run needs `confirm_large: true` (agency spec §8). */
export const CONFIRM_LARGE_ABOVE = 200;

export type RunInput = {
  client_id: string;
  recipe_id: string;
  column_key?: string;
  lead_ids?: string[];
  list_id?: string;
  overwrite?: boolean;
  confirm_large?: boolean;
  confirm_token?: string;
};

export type PlannedColumn = { step: ColumnStep; def: FormulaDef; cells: number; already_filled: number; missing_inputs: number };

export type RunPlan = {
  recipeId: string;
  version: number;
  columns: PlannedColumn[];
  /** Leads with at least one cell to evaluate, in run order. */
  leadIds: string[];
  list: { kind: 'lead_ids' | 'segment' | 'import' | 'pool'; id: string | null; name: string | null };
  considered: number;
  beyondRun: number;
  cells: number;
  creditCeiling: number;
};

/** The live version's column steps the run writes: `column_key`'s step, or every column step. */
export async function liveColumns(db: Db, orgId: string, clientId: string, recipeId: string, columnKey: string | null | undefined, pinnedVersion?: number | null) {
  const loaded = await loadRecipe(db, orgId, clientId, recipeId);
  if (!loaded.live || loaded.recipe.liveVersion === null) {
    throw new ApiError('conflict', 'this recipe has no live version yet: a person (or a plan step) makes its draft live before it runs; preview_recipe dry-runs the draft');
  }
  // A run's rounds keep the version it was confirmed on (versions are immutable, so it is still there).
  const version = pinnedVersion ?? loaded.recipe.liveVersion;
  const definition = version === loaded.recipe.liveVersion ? loaded.live : (await versionDefinitions(db, recipeId, [version])).get(version);
  if (!definition) throw new ApiError('conflict', `version ${version} of this recipe is gone`);
  const steps = definition.steps.filter(isColumnStep);
  const chosen = columnKey ? steps.filter((s) => s.column_key === columnKey) : steps;
  if (columnKey && chosen.length === 0) {
    throw new ApiError('validation_error', `column_key: "${columnKey}" is not a column of the recipe's live version (its columns: ${steps.map((s) => s.column_key).join(', ') || 'none'})`);
  }
  if (chosen.length === 0) throw new ApiError('conflict', "the recipe's live version has no column steps (formula, question or vacancy_search) to run");
  const columns: { step: ColumnStep; def: FormulaDef }[] = [];
  for (const step of chosen) {
    const def = await defOfStep(db, orgId, step);
    if (!def) throw new ApiError('recipe_invalid', `The column "${step.column_key}" uses a formula that no longer exists.`, { body: { problems: [`The column "${step.column_key}" uses a formula that no longer exists.`] } });
    columns.push({ step, def });
  }
  return { version, columns };
}

async function listScope(db: Db, orgId: string, clientId: string, listId: string): Promise<{ where: SQL; kind: 'segment' | 'import'; name: string }> {
  const [segment] = await db
    .select()
    .from(segments)
    .where(and(eq(segments.id, listId), eq(segments.orgId, orgId), eq(segments.clientId, clientId)));
  if (segment) {
    const filter = LeadFilterSchema.safeParse(segment.filter);
    return { where: leadFilterWhere({ orgId, clientId }, filter.success ? filter.data : {}), kind: 'segment', name: segment.name };
  }
  const [imp] = await db
    .select()
    .from(leadImports)
    .where(and(eq(leadImports.id, listId), eq(leadImports.orgId, orgId), eq(leadImports.clientId, clientId)));
  if (!imp) throw notFound('list (a saved segment or an import of this client)');
  return { where: and(eq(poolLeads.orgId, orgId), eq(poolLeads.clientId, clientId), eq(poolLeads.importId, imp.id), ne(poolLeads.status, 'removed'))!, kind: 'import', name: imp.name };
}

/** The leads a run considers, in a stable order; lead_ids of another client are not_found (naming the first). */
export async function runLeads(db: Db, orgId: string, clientId: string, input: Pick<RunInput, 'lead_ids' | 'list_id'>) {
  if (input.lead_ids && input.list_id) throw new ApiError('validation_error', 'give lead_ids or list_id, not both (neither: the whole pool)');
  let where: SQL;
  let list: RunPlan['list'];
  if (input.lead_ids) {
    const ids = [...new Set(input.lead_ids.map((i) => i.toLowerCase()))];
    where = and(eq(poolLeads.orgId, orgId), eq(poolLeads.clientId, clientId), inArray(poolLeads.id, ids), ne(poolLeads.status, 'removed'))!;
    list = { kind: 'lead_ids', id: null, name: null };
    const found = await db.select({ id: poolLeads.id }).from(poolLeads).where(where);
    const have = new Set(found.map((f) => f.id));
    const unknown = ids.find((id) => !have.has(id));
    if (unknown) throw notFound(`lead ${unknown}`);
  } else if (input.list_id) {
    const scope = await listScope(db, orgId, clientId, input.list_id);
    where = scope.where;
    list = { kind: scope.kind, id: input.list_id, name: scope.name };
  } else {
    where = leadFilterWhere({ orgId, clientId }, {});
    list = { kind: 'pool', id: null, name: null };
  }
  const leads = await db.select().from(poolLeads).where(where).orderBy(...poolOrder).limit(MAX_RUN_LEADS + 1);
  const [{ n }] = leads.length > MAX_RUN_LEADS ? await db.select({ n: sql<number>`count(*)::int` }).from(poolLeads).where(where) : [{ n: leads.length }];
  return { leads: leads.slice(0, MAX_RUN_LEADS), list, beyondRun: Math.max(0, Number(n) - MAX_RUN_LEADS) };
}

/**
 * Whether a cell will be evaluated: not when it holds a value (unless overwrite) nor when the lead lacks an input.
 * An input another column of this run writes counts as present: the earlier step fills it first.
 */
export function cellPlan(lead: PoolLeadRow, step: ColumnStep, def: FormulaDef, overwrite: boolean, writtenByRun: ReadonlySet<string>): 'evaluate' | 'filled' | 'missing' {
  if (!overwrite && !isBlank(leadValue(lead, step.column_key))) return 'filled';
  const missing = missingInputs(lead, def.inputs).filter((i) => !writtenByRun.has(i));
  return missing.length ? 'missing' : 'evaluate';
}

export async function planRun(db: Db, orgId: string, input: RunInput): Promise<RunPlan> {
  const { version, columns } = await liveColumns(db, orgId, input.client_id, input.recipe_id, input.column_key);
  const { leads, list, beyondRun } = await runLeads(db, orgId, input.client_id, input);
  const planned: PlannedColumn[] = columns.map((c) => ({ ...c, cells: 0, already_filled: 0, missing_inputs: 0 }));
  const leadIds: string[] = [];
  for (const lead of leads) {
    const earlier = new Set<string>();
    let any = false;
    for (const col of planned) {
      const plan = cellPlan(lead, col.step, col.def, input.overwrite === true, earlier);
      earlier.add(col.step.column_key);
      if (plan === 'evaluate') {
        col.cells++;
        any = true;
      } else if (plan === 'filled') col.already_filled++;
      else col.missing_inputs++;
    }
    if (any) leadIds.push(lead.id);
  }
  return {
    recipeId: input.recipe_id,
    version,
    columns: planned,
    leadIds,
    list,
    considered: leads.length,
    beyondRun,
    cells: planned.reduce((s, c) => s + c.cells, 0),
    creditCeiling: planned.reduce((s, c) => s + c.cells * c.def.credit_cost, 0),
  };
}
