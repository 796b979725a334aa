import type { Db } from '../db/types';
import { ApiError } from '../errors';
import { resolveFormula } from '../formulas/evaluate';
import { validateDefinition, type RecipeDefinition } from './schema';

/** The 422 a broken recipe gets: one sentence per problem, all of them in the message and listed in `problems`. */
export function recipeInvalid(problems: string[]): ApiError {
  return new ApiError('recipe_invalid', problems.join(' '), { body: { problems } });
}

/** A definition checked against the schema and this organization's formulas, or 422 recipe_invalid. */
export async function checkDefinition(db: Db, orgId: string, def: unknown): Promise<RecipeDefinition> {
  const cache = new Map<string, Promise<unknown>>();
  const result = await validateDefinition(def, {
    resolveFormula: (ref) => {
      // A recipe may name one formula in several steps: resolve it once.
      if (!cache.has(ref)) cache.set(ref, resolveFormula(db, orgId, ref));
      return cache.get(ref)!;
    },
  });
  if (!result.ok) throw recipeInvalid(result.problems);
  return result.definition;
}
