import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { recipes, recipeVersions } from '../../../schema';
import { writeAudit } from '../../agency/audit';
import { ApiError } from '../../errors';
import { findRecipe } from '../../recipes/load';
import { dryRunPassed, makeDraftLive } from '../../recipes/versions';
import type { StepKind } from '../step_kind';
import { oncePerStep } from './effect';

const Params = z
  .object({
    recipe_id: z.uuid({ message: 'must be the id of a recipe of this client (a UUID)' }),
    version: z.number().int().min(1).optional().describe('the version to make live; default: the draft when the step runs'),
  })
  .strict();
type Params = z.infer<typeof Params>;

/**
 * Makes a recipe version live on its day, only one whose dry run passed (preview_recipe confirmed), like a person
 * would in the app. Undo puts the previous live version back (or none), as long as nothing else went live since.
 */
export const recipeGoLiveStep: StepKind<Params> = {
  kind: 'recipe_go_live',
  summary: (p) => `Make ${p.version ? `version ${p.version}` : 'the draft'} of recipe ${p.recipe_id} live`,
  params: Params,
  buys: false,
  undoable: true,
  credits: () => 0,
  dryRun: async (ctx, p) => {
    const db = ctx.services.db;
    const [recipe] = await db.select().from(recipes).where(and(eq(recipes.id, p.recipe_id), eq(recipes.orgId, ctx.orgId), eq(recipes.clientId, ctx.clientId)));
    if (!recipe) return [`Recipe ${p.recipe_id} is not a recipe of this client.`];
    const version = p.version ?? recipe.draftVersion;
    if (version === null) return [`Recipe "${recipe.name}" has no draft to make live.`];
    const [exists] = await db.select({ v: recipeVersions.version }).from(recipeVersions).where(and(eq(recipeVersions.recipeId, recipe.id), eq(recipeVersions.version, version)));
    if (!exists) return [`Recipe "${recipe.name}" has no version ${version}.`];
    if (recipe.liveVersion === version) return [`Version ${version} of recipe "${recipe.name}" is already live.`];
    if (!(await dryRunPassed(db, ctx.orgId, recipe.id, version))) return [`Version ${version} of recipe "${recipe.name}" has no passed dry run; confirm preview_recipe on it first.`];
    return [];
  },
  run: (ctx, p) =>
    oncePerStep(ctx, 'recipe_go_live', async (tx) => {
      const before = await findRecipe(tx, ctx.orgId, ctx.clientId, p.recipe_id, true);
      const after = await makeDraftLive(tx, { orgId: ctx.orgId, clientId: ctx.clientId, recipeId: p.recipe_id, version: p.version, actor: ctx.actor, now: ctx.now, requireDryRun: true });
      return { recipe_id: p.recipe_id, version: after.liveVersion, previous_live_version: before.liveVersion };
    }),
  undo: async (ctx, _p, result) => {
    const db = ctx.services.db;
    const recipeId = String(result.recipe_id);
    const madeLive = Number(result.version);
    const previous = typeof result.previous_live_version === 'number' ? result.previous_live_version : null;
    const recipe = await findRecipe(db, ctx.orgId, ctx.clientId, recipeId, true);
    if (recipe.liveVersion !== madeLive) {
      throw new ApiError('conflict', `recipe "${recipe.name}" is at live version ${recipe.liveVersion ?? 'none'} now, not the version ${madeLive} this step made live; nothing was undone`);
    }
    if (previous !== null) {
      await makeDraftLive(db, { orgId: ctx.orgId, clientId: ctx.clientId, recipeId, version: previous, actor: ctx.actor, now: ctx.now });
    } else {
      await db.update(recipes).set({ liveVersion: null, updatedAt: ctx.now }).where(eq(recipes.id, recipe.id));
      await writeAudit(db, { orgId: ctx.orgId, actor: ctx.actor, action: 'recipe.made_live', target: `recipe:${recipe.id}`, detail: { client_id: ctx.clientId, version: null, previous_live_version: madeLive }, at: ctx.now });
    }
    // The undone version becomes the draft again (unless a newer draft exists), so it can go live later.
    const [now] = await db.select({ draft: recipes.draftVersion }).from(recipes).where(eq(recipes.id, recipe.id));
    if (now.draft === null || now.draft < madeLive) await db.update(recipes).set({ draftVersion: madeLive }).where(eq(recipes.id, recipe.id));
  },
};
