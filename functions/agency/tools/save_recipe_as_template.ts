import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { saveRecipeAsTemplate } from '../../../lib/recipes/save_template';
import { TemplateSchema } from '../../../lib/recipes/templates_store';
import { recipeNameArg } from './create_recipe';

export const saveRecipeAsTemplateOp = defineOperation({
  name: 'save_recipe_as_template',
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/recipes/{recipe_id}/template',
  scope: 'agency.write',
  toolset: 'recipes',
  studio: true,
  write: true,
  summary: "Save a recipe's newest version as one of the agency's templates, for reuse with any client.",
  description: [
    "Saves the recipe's newest version (the draft when there is one, else the live version) as an agency template named name (with an optional description).",
    'list_recipe_templates lists it under source "agency"; create_recipe with its template_id starts a recipe from it. A template of the same name (any case) is 409 conflict carrying it.',
  ].join(' '),
  input: z
    .object({
      client_id: idArg('client'),
      recipe_id: idArg('recipe'),
      name: recipeNameArg(),
      description: z.string().trim().max(1000).optional(),
    })
    .strict(),
  output: z.object({ template: TemplateSchema }),
  run: async (call, input) => ({ status: 201, body: await saveRecipeAsTemplate(call, input) }),
});
