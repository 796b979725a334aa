import { eq } from 'drizzle-orm';
import { recipes } from '../../schema';
import type { Db } from '../db/types';
import { notFound } from '../errors';
import { loadRecipe, recipeView, type RecipeView } from './load';
import { makeDraftLive } from './versions';

/** A person makes a version live through the admin API (the app); version defaults to the draft. */
export async function goLiveByAdmin(db: Db, q: { recipeId: string; version?: number; now: Date }): Promise<{ recipe: RecipeView }> {
  const [found] = await db.select({ orgId: recipes.orgId, clientId: recipes.clientId }).from(recipes).where(eq(recipes.id, q.recipeId));
  if (!found) throw notFound('recipe');
  return db.transaction(async (tx) => {
    await makeDraftLive(tx, { orgId: found.orgId, clientId: found.clientId, recipeId: q.recipeId, version: q.version, actor: 'admin', now: q.now });
    return { recipe: recipeView(await loadRecipe(tx, found.orgId, found.clientId, q.recipeId)) };
  });
}
