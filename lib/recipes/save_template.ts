import { and, eq, sql } from 'drizzle-orm';
import { recipeTemplates } from '../../schema';
import { findClient } from '../agency/clients/view';
import { writeAudit } from '../agency/audit';
import type { AgencyCall } from '../agency/operation';
import { isUniqueViolation } from '../db/types';
import { ApiError } from '../errors';
import { loadRecipe, newestDefinition } from './load';
import { templateView, type TemplateView } from './templates_store';

export type SaveTemplateInput = { client_id: string; recipe_id: string; name: string; description?: string };

/** save_recipe_as_template: the recipe's newest version becomes one of the agency's own templates. */
export async function saveRecipeAsTemplate(call: AgencyCall, input: SaveTemplateInput): Promise<{ template: TemplateView }> {
  const { db } = call.services;
  const orgId = call.auth.orgId;
  await findClient(db, orgId, input.client_id);
  const loaded = await loadRecipe(db, orgId, input.client_id, input.recipe_id);
  const { version, definition } = newestDefinition(loaded);
  const conflict = (existing: typeof recipeTemplates.$inferSelect) =>
    new ApiError('conflict', `the agency already has a template named "${existing.name}"; choose another name`, { body: { template: templateView(existing) } });
  const [existing] = await db
    .select()
    .from(recipeTemplates)
    .where(and(eq(recipeTemplates.orgId, orgId), sql`lower(${recipeTemplates.name}) = lower(${input.name})`));
  if (existing) throw conflict(existing);
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(recipeTemplates)
        .values({ orgId, name: input.name, description: input.description ?? '', definition, createdBy: call.actor, createdAt: call.now })
        .returning();
      await writeAudit(tx, {
        orgId,
        actor: call.actor,
        action: 'recipe.saved_as_template',
        target: `template:${row.id}`,
        detail: { recipe_id: loaded.recipe.id, client_id: loaded.recipe.clientId, version, name: row.name },
        at: call.now,
      });
      return { template: templateView(row) };
    });
  } catch (err) {
    if (isUniqueViolation(err, 'recipe_templates_scope_name_uq')) {
      const [row] = await db.select().from(recipeTemplates).where(and(eq(recipeTemplates.orgId, orgId), eq(recipeTemplates.name, input.name)));
      if (row) throw conflict(row);
    }
    throw err;
  }
}
