import { and, desc, eq, sql } from 'drizzle-orm';
import { auditLog, recipes, recipeVersions } from '../../schema';
import type { Db } from '../db/types';
import { ApiError } from '../errors';
import { writeAudit } from '../agency/audit';
import { findRecipe, type RecipeRow } from './load';
import type { RecipeDefinition } from './schema';

// Versions are immutable: every change inserts a new version row and points draft_version at it; nothing ever
// updates a recipe_versions row. The live version keeps running until makeDraftLive moves live_version.

/** The audit action that records a passed dry run of one version (confirming preview_recipe). */
export const DRY_RUN_PASSED = 'recipe.dry_run_passed';

/** The highest version ever written (a version made live and superseded still holds its number). */
export async function maxVersion(db: Db, recipeId: string): Promise<number> {
  const [{ max }] = await db
    .select({ max: sql<number | null>`max(${recipeVersions.version})` })
    .from(recipeVersions)
    .where(eq(recipeVersions.recipeId, recipeId));
  return Number(max ?? 0);
}

/** Appends a new draft version to a recipe locked by the caller (findRecipe(..., lock = true)). */
export async function addDraftVersion(
  tx: Db,
  recipe: RecipeRow,
  definition: RecipeDefinition,
  by: { actor: string; now: Date; note?: string },
): Promise<{ recipe: RecipeRow; version: number }> {
  const version = (await maxVersion(tx, recipe.id)) + 1;
  await tx.insert(recipeVersions).values({ recipeId: recipe.id, version, definition, note: by.note ?? null, createdBy: by.actor, createdAt: by.now });
  const [row] = await tx.update(recipes).set({ draftVersion: version, updatedAt: by.now }).where(eq(recipes.id, recipe.id)).returning();
  return { recipe: row, version };
}

/** Whether a dry run of this version was confirmed as passed (preview_recipe's confirm). */
export async function dryRunPassed(db: Db, orgId: string, recipeId: string, version: number): Promise<boolean> {
  const [row] = await db
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.orgId, orgId),
        eq(auditLog.action, DRY_RUN_PASSED),
        eq(auditLog.target, `recipe:${recipeId}`),
        sql`(${auditLog.detail}->>'version')::int = ${version}`,
      ),
    )
    .orderBy(desc(auditLog.at))
    .limit(1);
  return !!row;
}

export type MakeLiveInput = {
  orgId: string;
  clientId: string;
  recipeId: string;
  /** Default: the draft. An older version may be made live again (a rollback); the draft then stays a draft. */
  version?: number;
  actor: string;
  now: Date;
  /** A plan step passes true: it may make live only a version whose dry run passed (preview_recipe confirmed). */
  requireDryRun?: boolean;
};

/**
 * Makes a version of a recipe the live one, in the caller's transaction, with its audit row. For a person (the admin
 * route) and for a plan step (issue 16). Refuses 409 `conflict` when there is nothing to make live and
 * `dry_run_failed` when requireDryRun is set and no dry run of that version passed.
 */
export async function makeDraftLive(tx: Db, input: MakeLiveInput): Promise<RecipeRow> {
  const recipe = await findRecipe(tx, input.orgId, input.clientId, input.recipeId, true);
  const version = input.version ?? recipe.draftVersion;
  if (version === null) throw new ApiError('conflict', `recipe "${recipe.name}" has no draft to make live (live version ${recipe.liveVersion ?? 'none'})`);
  const [exists] = await tx
    .select({ version: recipeVersions.version })
    .from(recipeVersions)
    .where(and(eq(recipeVersions.recipeId, recipe.id), eq(recipeVersions.version, version)));
  if (!exists) throw new ApiError('not_found', `version ${version} of recipe "${recipe.name}" not found`);
  if (recipe.liveVersion === version) throw new ApiError('conflict', `version ${version} of recipe "${recipe.name}" is already live`);
  if (input.requireDryRun && !(await dryRunPassed(tx, input.orgId, recipe.id, version))) {
    throw new ApiError('dry_run_failed', `version ${version} of recipe "${recipe.name}" has no passed dry run; confirm preview_recipe on it first`);
  }
  const draftVersion = recipe.draftVersion !== null && recipe.draftVersion > version ? recipe.draftVersion : null;
  const [row] = await tx.update(recipes).set({ liveVersion: version, draftVersion, updatedAt: input.now }).where(eq(recipes.id, recipe.id)).returning();
  await writeAudit(tx, {
    orgId: input.orgId,
    actor: input.actor,
    action: 'recipe.made_live',
    target: `recipe:${recipe.id}`,
    detail: { client_id: recipe.clientId, version, previous_live_version: recipe.liveVersion },
    at: input.now,
  });
  return row;
}
