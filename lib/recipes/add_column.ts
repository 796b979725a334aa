import { and, eq } from 'drizzle-orm';
import { poolColumns } from '../../schema';
import type { Applied, Preview, TwoStepDef } from '../agency/confirm';
import type { AgencyCall } from '../agency/operation';
import type { Db } from '../db/types';
import { ApiError } from '../errors';
import { resolveFormula } from '../formulas/evaluate';
import type { OutputType } from '../formulas/types';
import type { RecipeDefinition } from './schema';
import { applyNewVersion, previewNewVersion, type VersionPreview } from './update';
import type { RecipeView } from './load';

export type AddColumnInput = {
  client_id: string;
  recipe_id: string;
  column_key: string;
  formula?: string;
  question?: string;
  output_type?: OutputType;
  confirm_token?: string;
};

export type AddColumnPreview = VersionPreview & {
  step: Record<string, unknown>;
  step_number: number;
  formula: { ref: string; name: string; output_type: OutputType; credit_cost: number } | null;
  existing_column: { key: string; type: string } | null;
};

function stepOf(input: AddColumnInput): Record<string, unknown> {
  if ((input.formula === undefined) === (input.question === undefined)) {
    throw new ApiError('validation_error', 'give exactly one of formula (a shared library key or your formula\'s id; find_formulas lists them) or question (asked to the AI per lead)');
  }
  if (input.formula !== undefined && input.output_type !== undefined) throw new ApiError('validation_error', 'output_type goes with question; a formula has its own output type');
  return input.formula !== undefined
    ? { type: 'formula', column_key: input.column_key, formula: input.formula }
    : { type: 'question', column_key: input.column_key, question: input.question, output_type: input.output_type ?? 'text' };
}

async function preview(call: AgencyCall, input: AddColumnInput, db: Db): Promise<Preview<AddColumnPreview>> {
  const step = stepOf(input);
  let stepNumber = 0;
  const { definition: _, ...p } = await previewNewVersion(call, db, {
    clientId: input.client_id,
    recipeId: input.recipe_id,
    build: (base: RecipeDefinition) => {
      stepNumber = base.steps.length + 1;
      return { steps: [...base.steps, step] };
    },
  });
  const def = input.formula !== undefined ? await resolveFormula(db, call.auth.orgId, input.formula) : null;
  // A pool column of this key already holds values of some type: the run writes into it.
  const [col] = await db
    .select({ key: poolColumns.key, type: poolColumns.type })
    .from(poolColumns)
    .where(and(eq(poolColumns.orgId, call.auth.orgId), eq(poolColumns.clientId, input.client_id), eq(poolColumns.key, input.column_key)));
  return {
    ...p,
    preview: {
      ...p.preview,
      step,
      step_number: stepNumber,
      formula: def ? { ref: def.ref, name: def.name, output_type: def.output_type, credit_cost: def.credit_cost } : null,
      existing_column: col ?? null,
    },
  };
}

/** add_column: a formula or question column appended to the recipe as a new draft version, in two steps. */
export const addColumn: TwoStepDef<AddColumnInput, AddColumnPreview, { recipe: RecipeView; version: number }> = {
  tool: 'add_column',
  preview,
  apply: (call, input, tx, p) => applyNewVersion(call, tx, input.client_id, p, 'recipe.column_added'),
};
