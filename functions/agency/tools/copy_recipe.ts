import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { copyRecipe } from '../../../lib/recipes/copy';
import { RecipeSchema } from '../../../lib/recipes/load';
import { recipeNameArg } from './create_recipe';

export const copyRecipeOp = defineOperation({
  name: 'copy_recipe',
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/recipes/{recipe_id}/copy',
  scope: 'agency.write',
  toolset: 'recipes',
  studio: true,
  write: true,
  summary: 'Copy a recipe within the client or to another client (to_client_id); the copy starts as a draft.',
  description:
    'Copy a recipe\'s newest version as version 1 (a draft) of a new recipe in this client or to_client_id. name defaults to the same name if free, else "<name> (copy)"; a taken name is 409 conflict carrying that recipe.',
  input: z
    .object({
      client_id: idArg('client'),
      recipe_id: idArg('recipe'),
      name: recipeNameArg().optional(),
      to_client_id: idArg('client').optional(),
    })
    .strict(),
  output: z.object({ recipe: RecipeSchema, copied_from: z.object({ recipe_id: z.string(), version: z.number().int() }) }),
  run: async (call, input) => ({ status: 201, body: await copyRecipe(call, input) }),
});
