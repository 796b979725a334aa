import { and, eq, sql } from 'drizzle-orm';
import { recipes, recipeVersions } from '../../schema';
import { findClient } from '../agency/clients/view';
import type { Applied, Preview, TwoStepDef } from '../agency/confirm';
import type { AgencyCall } from '../agency/operation';
import { isUniqueViolation, type Db } from '../db/types';
import { ApiError } from '../errors';
import { checkDefinition } from './check';
import { loadRecipe, recipeView, type RecipeRow, type RecipeView } from './load';
import type { RecipeDefinition } from './schema';
import { findTemplate } from './templates_store';

export type CreateInput = { client_id: string; name: string; definition?: Record<string, unknown>; template_id?: string; confirm_token?: string };

export type CreatePreview = {
  recipe: { client_id: string; name: string; version: 1; status: 'draft'; steps: Record<string, unknown>[] };
  template: { id: string; name: string } | null;
};

/** The client's recipe of this name (any case), if one exists. */
export async function recipeByName(db: Db, orgId: string, clientId: string, name: string): Promise<RecipeRow | null> {
  const [row] = await db
    .select()
    .from(recipes)
    .where(and(eq(recipes.orgId, orgId), eq(recipes.clientId, clientId), sql`lower(${recipes.name}) = lower(${name})`));
  return row ?? null;
}

/** 409 conflict carrying the recipe that already has the name, so the caller can update it instead. */
export async function nameTaken(db: Db, existing: RecipeRow): Promise<ApiError> {
  const current = recipeView(await loadRecipe(db, existing.orgId, existing.clientId, existing.id));
  return new ApiError('conflict', `this client already has a recipe named "${existing.name}"; update_recipe changes it, or choose another name`, { body: { recipe: current } });
}

/** Inserts a recipe with version 1 as its draft (nothing is live until a person or a plan step makes it so). */
export async function insertRecipe(tx: Db, q: { orgId: string; clientId: string; name: string; definition: RecipeDefinition; actor: string; now: Date; note?: string }): Promise<RecipeRow> {
  let row: RecipeRow;
  try {
    [row] = await tx
      .insert(recipes)
      .values({ orgId: q.orgId, clientId: q.clientId, name: q.name, liveVersion: null, draftVersion: 1, createdAt: q.now, updatedAt: q.now })
      .returning();
  } catch (err) {
    // Another call took the name after this one looked: the same answer as if it had been there before.
    if (isUniqueViolation(err, 'recipes_client_name_uq')) throw new ApiError('conflict', `this client already has a recipe named "${q.name}"; choose another name`);
    throw err;
  }
  await tx.insert(recipeVersions).values({ recipeId: row.id, version: 1, definition: q.definition, note: q.note ?? null, createdBy: q.actor, createdAt: q.now });
  return row;
}

async function preview(call: AgencyCall, input: CreateInput, db: Db): Promise<Preview<CreatePreview>> {
  const orgId = call.auth.orgId;
  if ((input.definition === undefined) === (input.template_id === undefined)) {
    throw new ApiError('validation_error', 'give exactly one of definition (the steps) or template_id (list_recipe_templates lists them)');
  }
  const client = await findClient(db, orgId, input.client_id);
  const template = input.template_id !== undefined ? await findTemplate(db, orgId, input.template_id) : null;
  // A template is checked like a definition: an agency template may name a formula deleted since it was saved.
  const definition = await checkDefinition(db, orgId, template ? template.definition : input.definition);
  const existing = await recipeByName(db, orgId, client.id, input.name);
  if (existing) throw await nameTaken(db, existing);
  return {
    preview: {
      recipe: { client_id: client.id, name: input.name, version: 1, status: 'draft', steps: definition.steps as Record<string, unknown>[] },
      template: template ? { id: template.id, name: template.name } : null,
    },
    state: { name_free: true, definition },
    credits: 0,
  };
}

async function apply(call: AgencyCall, input: CreateInput, tx: Db, p: Preview<CreatePreview>): Promise<Applied<{ recipe: RecipeView }>> {
  const orgId = call.auth.orgId;
  const row = await insertRecipe(tx, {
    orgId,
    clientId: p.preview.recipe.client_id,
    name: input.name,
    definition: { steps: p.preview.recipe.steps } as RecipeDefinition,
    actor: call.actor,
    now: call.now,
    note: p.preview.template ? `from template ${p.preview.template.id}` : undefined,
  });
  const recipe = recipeView(await loadRecipe(tx, orgId, row.clientId, row.id));
  return {
    result: { recipe },
    audit: { action: 'recipe.created', target: `recipe:${row.id}`, detail: { client_id: row.clientId, name: row.name, version: 1, template_id: p.preview.template?.id ?? null } },
  };
}

/** create_recipe: a new recipe whose version 1 is a draft, from a definition or a template, in two steps. */
export const createRecipe: TwoStepDef<CreateInput, CreatePreview, { recipe: RecipeView }> = { tool: 'create_recipe', preview, apply };
