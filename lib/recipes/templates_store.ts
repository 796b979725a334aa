import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { recipeTemplates } from '../../schema';
import type { Db } from '../db/types';
import { notFound } from '../errors';
import type { RecipeDefinition } from './schema';
import { STARTER_PREFIX, STARTER_TEMPLATES, starterById } from './templates';
import { isUuid } from '../ids';

export const TemplateSchema = z.object({
  id: z.string().describe('`starter:<name>` for a bundled starter template, else the id of one of the agency\'s own'),
  name: z.string(),
  description: z.string(),
  source: z.enum(['starter', 'agency']),
  steps: z.array(z.record(z.string(), z.unknown())),
  created_at: z.string().nullable(),
});
export type TemplateView = z.infer<typeof TemplateSchema>;

type TemplateRow = typeof recipeTemplates.$inferSelect;

export const templateView = (t: TemplateRow): TemplateView => ({
  id: t.id,
  name: t.name,
  description: t.description,
  source: 'agency',
  steps: (t.definition as RecipeDefinition).steps as Record<string, unknown>[],
  created_at: t.createdAt.toISOString(),
});

/** The starter set, then the organization's own templates by name. */
export async function listTemplates(db: Db, orgId: string): Promise<TemplateView[]> {
  const own = await db.select().from(recipeTemplates).where(eq(recipeTemplates.orgId, orgId)).orderBy(asc(recipeTemplates.name));
  const starters: TemplateView[] = STARTER_TEMPLATES.map((t) => ({ id: t.id, name: t.name, description: t.description, source: 'starter', steps: t.definition.steps as Record<string, unknown>[], created_at: null }));
  return [...starters, ...own.map(templateView)];
}

/** A starter template or one of this organization's own; another organization's template is not_found. */
export async function findTemplate(db: Db, orgId: string, id: string): Promise<TemplateView & { definition: RecipeDefinition }> {
  if (id.startsWith(STARTER_PREFIX)) {
    const t = starterById.get(id);
    if (!t) throw notFound(`template ${JSON.stringify(id)}`);
    return { id: t.id, name: t.name, description: t.description, source: 'starter', steps: t.definition.steps as Record<string, unknown>[], created_at: null, definition: t.definition };
  }
  // Not a UUID: no row can match, and the database would refuse the comparison.
  if (!isUuid(id)) throw notFound(`template ${JSON.stringify(id)}`);
  const [row] = await db.select().from(recipeTemplates).where(and(eq(recipeTemplates.id, id.toLowerCase()), eq(recipeTemplates.orgId, orgId)));
  if (!row) throw notFound(`template ${JSON.stringify(id)}`);
  return { ...templateView(row), definition: row.definition as RecipeDefinition };
}
