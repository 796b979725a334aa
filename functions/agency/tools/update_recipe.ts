import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { runTwoStep } from '../../../lib/agency/confirm';
import { confirmTokenArg, defineOperation, twoStepOutput } from '../../../lib/agency/define';
import { StepChangeSchema } from '../../../lib/recipes/changes';
import { StepDiffSchema } from '../../../lib/recipes/diff';
import { RecipeSchema, RecipeStepView } from '../../../lib/recipes/load';
import { RECIPE_LIMITS } from '../../../lib/recipes/schema';
import { updateRecipe } from '../../../lib/recipes/update';
import { definitionArg } from './create_recipe';

export const VersionPreviewSchema = z.object({
  recipe: z.object({ id: z.string(), name: z.string(), live_version: z.number().int().nullable(), draft_version: z.number().int().nullable() }),
  base_version: z.number().int().describe('the version the change builds on (the draft when there is one, else the live version)'),
  new_version: z.number().int().describe('the draft version confirming creates'),
  diff: z.array(StepDiffSchema),
  steps: z.array(RecipeStepView).describe('the new version\'s steps'),
});

export const VersionResultSchema = z.object({ recipe: RecipeSchema, version: z.number().int() });

export const updateRecipeOp = defineOperation({
  name: 'update_recipe',
  method: 'PUT',
  path: '/v1/agency/clients/{client_id}/recipes/{recipe_id}',
  scope: 'agency.write',
  toolset: 'recipes',
  studio: true,
  write: true,
  twoStep: true,
  summary: 'Change a recipe as a new draft version (two steps): step_changes or a whole definition. The live version keeps running.',
  description:
    'Make a new draft version from the newest one (two steps); the live version keeps running. Give definition (whole { steps }) or step_changes applied in order, steps numbered from 1: add {step, at?}, remove {at}, replace {at, step}, set {at, fields} (null removes a field), move {at, to}. Invalid: 422 recipe_invalid. No change: blocked_by conflict.',
  input: z
    .object({
      client_id: idArg('client'),
      recipe_id: idArg('recipe'),
      step_changes: z.array(StepChangeSchema).min(1).max(RECIPE_LIMITS.max_steps).optional(),
      definition: definitionArg().optional(),
      confirm_token: confirmTokenArg,
    })
    .strict(),
  output: twoStepOutput(VersionPreviewSchema, VersionResultSchema),
  run: async (call, input) => {
    const out = await runTwoStep(call, updateRecipe, input);
    return { body: out.confirmed ? out.result : out.answer };
  },
});
