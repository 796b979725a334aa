import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { runTwoStep } from '../../../lib/agency/confirm';
import { confirmTokenArg, defineOperation, twoStepOutput } from '../../../lib/agency/define';
import { createRecipe } from '../../../lib/recipes/create';
import { RecipeSchema, RecipeStepView } from '../../../lib/recipes/load';
import { RECIPE_LIMITS } from '../../../lib/recipes/schema';

export const recipeNameArg = () => z.string().trim().min(1).max(RECIPE_LIMITS.max_name_length);
export const definitionArg = () =>
  z
    .record(z.string(), z.unknown())
    .describe('The recipe definition { steps: [...] }; get_recipe_schema publishes its JSON Schema. A broken one is refused with 422 recipe_invalid, one sentence per problem.');

const CreatePreview = z.object({
  recipe: z.object({ client_id: z.string(), name: z.string(), version: z.number().int(), status: z.literal('draft'), steps: z.array(RecipeStepView) }),
  template: z.object({ id: z.string(), name: z.string() }).nullable(),
});

export const createRecipeOp = defineOperation({
  name: 'create_recipe',
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/recipes',
  scope: 'agency.write',
  toolset: 'recipes',
  studio: true,
  write: true,
  twoStep: true,
  summary: 'Create an enrichment recipe for a client from a definition or a template (two steps); it starts as a draft.',
  description:
    'Create a client\'s recipe from name plus definition ({ steps }, see get_recipe_schema) or template_id (two steps). Invalid: 422 recipe_invalid, one sentence per problem; fix all and call again. Same name in the client: 409 conflict. Version 1 is a draft: nothing runs until made live; preview_recipe dry-runs it.',
  input: z
    .object({
      client_id: idArg('client'),
      name: recipeNameArg(),
      definition: definitionArg().optional(),
      template_id: z.string().trim().min(1).max(100).describe('a template id from list_recipe_templates (starter:<name> or your own template\'s id)').optional(),
      confirm_token: confirmTokenArg,
    })
    .strict(),
  output: twoStepOutput(CreatePreview, z.object({ recipe: RecipeSchema })),
  run: async (call, input) => {
    const out = await runTwoStep(call, createRecipe, input);
    return out.confirmed ? { status: 201, body: out.result } : { body: out.answer };
  },
});
