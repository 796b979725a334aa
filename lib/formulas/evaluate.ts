// Resolving a formula reference and evaluating one column step on one lead: the contract recipes (preview_recipe)
// and runs (run_formula rounds) share. Equal inputs give equal outputs: expressions are pure, the enrichment and AI
// ports are deterministic offline, and the run's clock is passed in.
import { and, eq } from 'drizzle-orm';
import { formulas } from '../../schema';
import { askWith } from '../ai/index';
import type { Db } from '../db/types';
import type { PoolLeadRow } from '../pool/view';
import { EnrichmentRetryLater } from '../ports/enrichment/port';
import type { ColumnStep } from '../recipes/schema';
import type { Services } from '../services';
import { checkExpression, evaluate, type Value } from './expr/run';
import type { Node } from './expr/parse';
import { factsOf, leadValue, missingInputs } from './fields';
import { LIBRARY_BY_KEY, libraryDef } from './library';
import { cellOf } from './cell';
import type { CellResult, FormulaDef } from './types';
import { isUuid } from '../ids';

export type EvalContext = { db: Db; orgId: string; clientId: string; now: Date };

/** Credits per cell written by a question step and by a vacancy search (formula steps carry their own cost). */
export const QUESTION_COST = 1;
export const VACANCY_COST = 1;

export type OwnFormulaRow = typeof formulas.$inferSelect;

export const ownDef = (r: OwnFormulaRow): FormulaDef => ({
  ref: r.id,
  library: 'agency',
  name: r.name,
  description: r.description,
  goals: r.goals,
  kind: r.kind,
  spec: r.spec,
  inputs: r.inputs,
  output_type: r.outputType,
  credit_cost: r.creditCost,
});

/** A shared library key or an own formula id (of this organization) → its definition; null when neither. */
export async function resolveFormula(db: Db, orgId: string, ref: string): Promise<FormulaDef | null> {
  const shared = LIBRARY_BY_KEY.get(ref);
  if (shared) return libraryDef(shared);
  if (!isUuid(ref)) return null;
  const [row] = await db
    .select()
    .from(formulas)
    .where(and(eq(formulas.id, ref.toLowerCase()), eq(formulas.orgId, orgId)));
  return row ? ownDef(row) : null;
}

/** The `{field}` placeholders of a question: the lead fields it needs. */
export const placeholdersOf = (question: string) => [...new Set([...question.matchAll(/\{([a-z_][a-z0-9_]*)\}/gi)].map((m) => m[1]))];

/**
 * The definition a column step evaluates: a formula step's formula, or the formula a question or a vacancy search
 * amounts to (so runs price, skip and write every column step one way). null: the step's formula does not exist.
 */
export async function defOfStep(db: Db, orgId: string, step: ColumnStep): Promise<FormulaDef | null> {
  switch (step.type) {
    case 'formula':
      return resolveFormula(db, orgId, step.formula);
    case 'question':
      return {
        ref: 'question',
        library: 'agency',
        name: step.column_key,
        description: step.question,
        goals: [],
        kind: 'question',
        spec: { question: step.question },
        inputs: placeholdersOf(step.question),
        output_type: step.output_type,
        credit_cost: QUESTION_COST,
      };
    case 'vacancy_search':
      return {
        ref: `vacancy_search:${step.hiring_role}`,
        library: 'shared',
        name: step.column_key,
        description: `open vacancies for ${step.hiring_role === 'custom' ? step.custom_role : step.hiring_role}`,
        goals: [],
        kind: 'lookup',
        spec: { field: 'vacancies', role: step.hiring_role, custom_role: step.custom_role, expression: 'join(value, "; ")' },
        inputs: ['company_domain'],
        output_type: 'text',
        credit_cost: VACANCY_COST,
      };
  }
}

const compiled = new Map<string, Node>();
/** Expressions are parsed once per process: a run evaluates one formula over thousands of leads. */
function treeOf(src: string): Node {
  let tree = compiled.get(src);
  if (!tree) {
    tree = checkExpression(src).tree;
    if (compiled.size > 500) compiled.clear();
    compiled.set(src, tree);
  }
  return tree;
}

/** Evaluates an expression over a lead (and `value`, for a lookup's post-expression). Pure: the bench measures it alone. */
export function evaluateExpression(src: string, lead: PoolLeadRow, now: Date, value?: Value): Value {
  return evaluate(treeOf(src), { get: (name) => (name === 'value' && value !== undefined ? value : leadValue(lead, name)), now });
}

/** The provenance source a written cell carries. */
export const provenanceOf = (def: Pick<FormulaDef, 'ref'>) => `formula:${def.ref}`;

/**
 * Evaluates a formula on one lead. Throws EnrichmentRetryLater (the provider asked to wait: a run leaves the lead
 * for a later round); every other failure is a `failed` cell, so one bad lead never stops a run.
 */
export async function evaluateDef(services: Services, ctx: EvalContext, def: FormulaDef, lead: PoolLeadRow): Promise<CellResult> {
  const missing = missingInputs(lead, def.inputs);
  if (missing.length) return { status: 'skipped', missing };
  try {
    if (def.kind === 'expression') return cellOf(evaluateExpression(String(def.spec.expression ?? ''), lead, ctx.now), def.output_type);
    if (def.kind === 'lookup') return cellOf(await lookupValue(services, ctx, def, lead), def.output_type);
    const question = String(def.spec.question ?? '').replace(/\{([a-z_][a-z0-9_]*)\}/gi, (_, name: string) => String(leadValue(lead, name) ?? ''));
    const { answer } = await askWith(services.ai, question, factsOf(lead));
    return cellOf(answer, def.output_type);
  } catch (err) {
    if (err instanceof EnrichmentRetryLater) throw err;
    return { status: 'failed', error: err instanceof Error ? err.message : String(err) };
  }
}

async function lookupValue(services: Services, ctx: EvalContext, def: FormulaDef, lead: PoolLeadRow): Promise<Value> {
  const port = services.studio.enrichment;
  const domain = String(leadValue(lead, 'company_domain') ?? '');
  const portCtx = { db: ctx.db, orgId: ctx.orgId, now: ctx.now };
  const field = String(def.spec.field ?? '');
  let value: Value;
  if (field === 'vacancies') {
    const role = (def.spec.role ?? 'default') as Parameters<typeof port.vacancies>[2];
    const found = await port.vacancies(portCtx, domain, role, typeof def.spec.custom_role === 'string' ? def.spec.custom_role : undefined);
    value = found.map((v) => v.title);
  } else if (field === 'signals') {
    const kind = String(def.spec.kind ?? 'news') as Parameters<typeof port.signals>[2][number];
    value = (await port.signals(portCtx, domain, [kind])).map((s) => s.title);
  } else {
    const facts = await port.company(portCtx, domain);
    const raw = facts ? (facts as Record<string, unknown>)[field] : null;
    value = raw === undefined || raw === null ? null : Array.isArray(raw) ? raw.map(String) : (raw as Value);
  }
  if (value === null || (Array.isArray(value) && value.length === 0 && !def.spec.expression)) return null;
  return typeof def.spec.expression === 'string' ? evaluateExpression(def.spec.expression, lead, ctx.now, value) : value;
}

/** One column step on one lead: written, empty (nothing found: costs nothing), skipped (inputs missing) or failed. */
export async function evaluateStep(services: Services, ctx: EvalContext, step: ColumnStep, lead: PoolLeadRow): Promise<CellResult> {
  const def = await defOfStep(ctx.db, ctx.orgId, step);
  if (!def) return { status: 'failed', error: `unknown formula ${JSON.stringify(step.type === 'formula' ? step.formula : step.type)}` };
  try {
    return await evaluateDef(services, ctx, def, lead);
  } catch (err) {
    return { status: 'failed', error: err instanceof Error ? err.message : String(err) };
  }
}

export { factsOf };
