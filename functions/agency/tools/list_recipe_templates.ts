import { z } from 'zod';
import { defineOperation } from '../../../lib/agency/define';
import { listTemplates, TemplateSchema } from '../../../lib/recipes/templates_store';

export const listRecipeTemplatesOp = defineOperation({
  name: 'list_recipe_templates',
  method: 'GET',
  path: '/v1/agency/recipe-templates',
  scope: 'agency.read',
  toolset: 'recipes',
  studio: true,
  write: false,
  summary: "Recipe templates: the service's starter set and the agency's own saved ones.",
  description: [
    'Starter templates (source "starter", ids starter:<name>) for common agency enrichments (hiring signals, funding, tech stack fit, find emails + DNS scan, company profile, …), then the agency\'s own (source "agency", saved with save_recipe_as_template).',
    'create_recipe with template_id starts a recipe from one.',
  ].join(' '),
  input: z.object({}).strict(),
  output: z.object({ templates: z.array(TemplateSchema) }),
  run: async (call) => ({ body: { templates: await listTemplates(call.services.db, call.auth.orgId) } }),
});
