import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { recipes, recipeVersions } from '../../schema';
import type { Db } from '../db/types';
import { notFound } from '../errors';
import type { RecipeDefinition, RecipeStep } from './schema';

export type RecipeRow = typeof recipes.$inferSelect;

/**
 * The client's recipe, or not_found: another client's or organization's recipe is indistinguishable from none.
 * `lock`: under a row lock, for a change that builds a new version from the one it read.
 */
export async function findRecipe(db: Db, orgId: string, clientId: string, recipeId: string, lock = false): Promise<RecipeRow> {
  const q = db
    .select()
    .from(recipes)
    .where(and(eq(recipes.id, recipeId), eq(recipes.orgId, orgId), eq(recipes.clientId, clientId)));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw notFound('recipe');
  return row;
}

/** The definitions of some versions of one recipe (stored ones were validated when written). */
export async function versionDefinitions(db: Db, recipeId: string, versions: readonly (number | null)[]): Promise<Map<number, RecipeDefinition>> {
  const wanted = [...new Set(versions.filter((v): v is number => v !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ version: recipeVersions.version, definition: recipeVersions.definition })
    .from(recipeVersions)
    .where(and(eq(recipeVersions.recipeId, recipeId), inArray(recipeVersions.version, wanted)));
  return new Map(rows.map((r) => [r.version, r.definition as unknown as RecipeDefinition]));
}

export type LoadedRecipe = { recipe: RecipeRow; live: RecipeDefinition | null; draft: RecipeDefinition | null };

/** A recipe with its live and draft definitions (either may be null); 404 for another client's or org's recipe. */
export async function loadRecipe(db: Db, orgId: string, clientId: string, recipeId: string, lock = false): Promise<LoadedRecipe> {
  const recipe = await findRecipe(db, orgId, clientId, recipeId, lock);
  const defs = await versionDefinitions(db, recipe.id, [recipe.liveVersion, recipe.draftVersion]);
  return {
    recipe,
    live: recipe.liveVersion !== null ? defs.get(recipe.liveVersion) ?? null : null,
    draft: recipe.draftVersion !== null ? defs.get(recipe.draftVersion) ?? null : null,
  };
}

/** The version a change builds on: the newest one (the draft when there is one, else the live one). */
export function newestDefinition(l: LoadedRecipe): { version: number; definition: RecipeDefinition } {
  if (l.recipe.draftVersion !== null && l.draft) return { version: l.recipe.draftVersion, definition: l.draft };
  return { version: l.recipe.liveVersion!, definition: l.live! };
}

export const RecipeStepView = z.record(z.string(), z.unknown()).describe('a recipe step (get_recipe_schema describes the step types)');

export const RecipeSchema = z.object({
  id: z.string(),
  client_id: z.string(),
  name: z.string(),
  live_version: z.number().int().nullable().describe('the version that runs; null until a person or a plan step makes a draft live'),
  draft_version: z.number().int().nullable().describe('the newest version not yet live; null when there is none'),
  steps_version: z.number().int().describe('the version `steps` shows: the draft when there is one, else the live version'),
  steps: z.array(RecipeStepView),
  created_at: z.string(),
  updated_at: z.string(),
});
export type RecipeView = z.infer<typeof RecipeSchema>;

/** A recipe as the agency API shows it. `steps` are the newest version's: what the next change builds on. */
export function recipeView(l: LoadedRecipe): RecipeView {
  const newest = newestDefinition(l);
  return {
    id: l.recipe.id,
    client_id: l.recipe.clientId,
    name: l.recipe.name,
    live_version: l.recipe.liveVersion,
    draft_version: l.recipe.draftVersion,
    steps_version: newest.version,
    steps: newest.definition.steps as RecipeStep[] as Record<string, unknown>[],
    created_at: l.recipe.createdAt.toISOString(),
    updated_at: l.recipe.updatedAt.toISOString(),
  };
}
