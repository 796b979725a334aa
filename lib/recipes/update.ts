import { findClient } from '../agency/clients/view';
import type { Applied, Preview, TwoStepDef } from '../agency/confirm';
import { canonicalJson } from '../agency/canonical';
import type { AgencyCall } from '../agency/operation';
import type { Db } from '../db/types';
import { ApiError } from '../errors';
import { applyStepChanges, type StepChange } from './changes';
import { checkDefinition, recipeInvalid } from './check';
import { diffSteps, type StepDiff } from './diff';
import { loadRecipe, newestDefinition, recipeView, type RecipeView } from './load';
import type { RecipeDefinition } from './schema';
import { addDraftVersion, maxVersion } from './versions';

export type UpdateInput = { client_id: string; recipe_id: string; step_changes?: StepChange[]; definition?: Record<string, unknown>; confirm_token?: string };

export type VersionPreview = {
  recipe: { id: string; name: string; live_version: number | null; draft_version: number | null };
  base_version: number;
  new_version: number;
  diff: StepDiff[];
  steps: Record<string, unknown>[];
};

/**
 * The preview of a change that makes a new draft version from the newest one: checks the new definition (422
 * recipe_invalid naming each problem), diffs it, and binds the confirm to the version it was built on.
 */
export async function previewNewVersion(
  call: AgencyCall,
  db: Db,
  q: { clientId: string; recipeId: string; build: (base: RecipeDefinition) => unknown },
): Promise<Preview<VersionPreview> & { definition: RecipeDefinition }> {
  const orgId = call.auth.orgId;
  await findClient(db, orgId, q.clientId);
  // Locked in the confirm: a concurrent change waits, then finds the base version moved (stale).
  const loaded = await loadRecipe(db, orgId, q.clientId, q.recipeId, db !== call.services.db);
  const base = newestDefinition(loaded);
  const definition = await checkDefinition(db, orgId, q.build(base.definition));
  const { recipe } = loaded;
  const preview: VersionPreview = {
    recipe: { id: recipe.id, name: recipe.name, live_version: recipe.liveVersion, draft_version: recipe.draftVersion },
    base_version: base.version,
    new_version: (await maxVersion(db, recipe.id)) + 1,
    diff: diffSteps(base.definition.steps, definition.steps),
    steps: definition.steps as Record<string, unknown>[],
  };
  const same = canonicalJson(definition) === canonicalJson(base.definition);
  return {
    preview,
    definition,
    state: { base_version: base.version, new_version: preview.new_version, live: recipe.liveVersion, draft: recipe.draftVersion },
    credits: 0,
    ...(same ? { blockedBy: 'conflict' as const, blockedMessage: `nothing changes: the new definition equals version ${base.version}` } : {}),
  };
}

export async function applyNewVersion(call: AgencyCall, tx: Db, clientId: string, p: Preview<VersionPreview>, action: string): Promise<Applied<{ recipe: RecipeView; version: number }>> {
  const orgId = call.auth.orgId;
  // The confirm's preview already locked the row; this reads it as locked.
  const loaded = await loadRecipe(tx, orgId, clientId, p.preview.recipe.id, true);
  const { version } = await addDraftVersion(tx, loaded.recipe, { steps: p.preview.steps } as RecipeDefinition, { actor: call.actor, now: call.now });
  const recipe = recipeView(await loadRecipe(tx, orgId, loaded.recipe.clientId, loaded.recipe.id));
  return {
    result: { recipe, version },
    audit: {
      action,
      target: `recipe:${recipe.id}`,
      detail: { client_id: recipe.client_id, base_version: p.preview.base_version, version, changes: p.preview.diff.filter((d) => d.change !== 'unchanged').map((d) => ({ change: d.change, before_step: d.before_step, after_step: d.after_step })) },
    },
  };
}

function build(input: UpdateInput) {
  return (base: RecipeDefinition): unknown => {
    if (input.definition !== undefined) return input.definition;
    const r = applyStepChanges(base.steps as Record<string, unknown>[], input.step_changes!);
    if (!r.ok) throw recipeInvalid(r.problems);
    return { steps: r.steps };
  };
}

async function preview(call: AgencyCall, input: UpdateInput, db: Db): Promise<Preview<VersionPreview>> {
  if ((input.definition === undefined) === (input.step_changes === undefined)) {
    throw new ApiError('validation_error', 'give exactly one of step_changes (a list of changes) or definition (the whole new steps)');
  }
  const { definition: _, ...p } = await previewNewVersion(call, db, { clientId: input.client_id, recipeId: input.recipe_id, build: build(input) });
  return p;
}

/** update_recipe: a new draft version from step_changes or a whole definition; the live version keeps running. */
export const updateRecipe: TwoStepDef<UpdateInput, VersionPreview, { recipe: RecipeView; version: number }> = {
  tool: 'update_recipe',
  preview,
  apply: (call, input, tx, p) => applyNewVersion(call, tx, input.client_id, p, 'recipe.updated'),
};
