import { and, asc, eq, inArray } from 'drizzle-orm';
import { recipes, recipeVersions } from '../../schema';
import { findClient } from '../agency/clients/view';
import type { Db } from '../db/types';
import { recipeView, type RecipeView } from './load';
import type { RecipeDefinition } from './schema';

/** list_recipes: the client's recipes by name, each with the steps of its newest version (two queries in all). */
export async function listRecipes(db: Db, orgId: string, clientId: string): Promise<{ recipes: RecipeView[] }> {
  await findClient(db, orgId, clientId);
  const rows = await db.select().from(recipes).where(and(eq(recipes.orgId, orgId), eq(recipes.clientId, clientId))).orderBy(asc(recipes.name), asc(recipes.id));
  if (rows.length === 0) return { recipes: [] };
  const versions = await db
    .select({ recipeId: recipeVersions.recipeId, version: recipeVersions.version, definition: recipeVersions.definition })
    .from(recipeVersions)
    .where(
      and(
        inArray(recipeVersions.recipeId, rows.map((r) => r.id)),
        // Only the versions shown: a long-edited recipe has many.
        inArray(recipeVersions.version, [...new Set(rows.flatMap((r) => [r.liveVersion, r.draftVersion]).filter((v): v is number => v !== null))]),
      ),
    );
  const def = new Map(versions.map((v) => [`${v.recipeId}:${v.version}`, v.definition as unknown as RecipeDefinition]));
  return {
    recipes: rows.map((r) =>
      recipeView({
        recipe: r,
        live: r.liveVersion !== null ? def.get(`${r.id}:${r.liveVersion}`) ?? null : null,
        draft: r.draftVersion !== null ? def.get(`${r.id}:${r.draftVersion}`) ?? null : null,
      }),
    ),
  };
}
