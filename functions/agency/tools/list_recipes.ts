import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { listRecipes } from '../../../lib/recipes/list';
import { RecipeSchema } from '../../../lib/recipes/load';

export const listRecipesOp = defineOperation({
  name: 'list_recipes',
  method: 'GET',
  path: '/v1/agency/clients/{client_id}/recipes',
  scope: 'agency.read',
  toolset: 'recipes',
  studio: true,
  write: false,
  summary: "A client's enrichment recipes with their live and draft versions and steps.",
  description: [
    "The client's enrichment recipes by name. live_version is the version that runs (null until a person or a plan step makes a draft live); draft_version is the newest version not yet live.",
    'steps are those of steps_version: the draft when there is one, else the live version (what update_recipe and add_column build on).',
  ].join(' '),
  input: z.object({ client_id: idArg('client') }).strict(),
  output: z.object({ recipes: z.array(RecipeSchema) }),
  run: async (call, input) => ({ body: await listRecipes(call.services.db, call.auth.orgId, input.client_id) }),
});
