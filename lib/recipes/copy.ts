import { findClient } from '../agency/clients/view';
import { writeAudit } from '../agency/audit';
import type { AgencyCall } from '../agency/operation';
import { checkDefinition } from './check';
import { insertRecipe, nameTaken, recipeByName } from './create';
import { loadRecipe, newestDefinition, recipeView, type RecipeView } from './load';
import { RECIPE_LIMITS } from './schema';

export type CopyInput = { client_id: string; recipe_id: string; name?: string; to_client_id?: string };

/** "<name> (copy)", "<name> (copy 2)", … : the first free one in the target client. */
async function freeCopyName(call: AgencyCall, clientId: string, base: string): Promise<string> {
  const db = call.services.db;
  if (!(await recipeByName(db, call.auth.orgId, clientId, base))) return base;
  for (let n = 1; n < 1000; n++) {
    const suffix = n === 1 ? ' (copy)' : ` (copy ${n})`;
    const name = `${base.slice(0, RECIPE_LIMITS.max_name_length - suffix.length)}${suffix}`;
    if (!(await recipeByName(db, call.auth.orgId, clientId, name))) return name;
  }
  return `${base.slice(0, RECIPE_LIMITS.max_name_length - 20)} (copy ${Date.now()})`;
}

/**
 * copy_recipe: the newest version (draft, else live) becomes version 1, a draft, of a new recipe in the same client
 * or another client of the organization. Without a name, the copy keeps the name where it is free, else "(copy)".
 */
export async function copyRecipe(call: AgencyCall, input: CopyInput): Promise<{ recipe: RecipeView; copied_from: { recipe_id: string; version: number } }> {
  const { db } = call.services;
  const orgId = call.auth.orgId;
  await findClient(db, orgId, input.client_id);
  const source = await loadRecipe(db, orgId, input.client_id, input.recipe_id);
  const target = input.to_client_id ? await findClient(db, orgId, input.to_client_id) : null;
  const targetId = target?.id ?? input.client_id;
  const newest = newestDefinition(source);
  // Checked again: an own formula the recipe names may have been deleted since it was saved.
  const definition = await checkDefinition(db, orgId, newest.definition);
  let name: string;
  if (input.name !== undefined) {
    const taken = await recipeByName(db, orgId, targetId, input.name);
    if (taken) throw await nameTaken(db, taken);
    name = input.name;
  } else {
    name = await freeCopyName(call, targetId, source.recipe.name);
  }
  return db.transaction(async (tx) => {
    const row = await insertRecipe(tx, { orgId, clientId: targetId, name, definition, actor: call.actor, now: call.now, note: `copy of ${source.recipe.id} v${newest.version}` });
    await writeAudit(tx, {
      orgId,
      actor: call.actor,
      action: 'recipe.copied',
      target: `recipe:${row.id}`,
      detail: { client_id: targetId, from_recipe_id: source.recipe.id, from_client_id: input.client_id, from_version: newest.version, name },
      at: call.now,
    });
    return { recipe: recipeView(await loadRecipe(tx, orgId, targetId, row.id)), copied_from: { recipe_id: source.recipe.id, version: newest.version } };
  });
}
