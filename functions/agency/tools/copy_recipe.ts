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
  description: [
    "Copies the recipe's newest version (the draft when there is one, else the live version) as version 1, a draft, of a new recipe in this client or in to_client_id (another client of the agency).",
    'name: the copy\'s name; without it the copy keeps the name where it is free, else "<name> (copy)". A name already taken in the target client is 409 conflict carrying that recipe.',
  ].join(' '),
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
