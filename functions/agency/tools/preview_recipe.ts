import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { runTwoStep } from '../../../lib/agency/confirm';
import { confirmTokenArg, defineOperation, twoStepOutput } from '../../../lib/agency/define';
import { LeadPreviewSchema, StepSummarySchema } from '../../../lib/recipes/dry_run';
import { previewRecipe } from '../../../lib/recipes/preview_recipe';
import { RECIPE_LIMITS } from '../../../lib/recipes/schema';

const RecipePreview = z.object({
  recipe: z.object({ id: z.string(), name: z.string(), live_version: z.number().int().nullable(), draft_version: z.number().int().nullable() }),
  version: z.number().int(),
  version_kind: z.enum(['live', 'draft']),
  passed: z.boolean().describe('no cell failed (and there were leads to try)'),
  leads: z.array(LeadPreviewSchema),
  steps: z.array(StepSummarySchema),
  failed: z.number().int(),
  credits_if_run: z.number().int().describe('what running the recipe on these leads would charge; the dry run itself costs 0'),
});

export const previewRecipeOp = defineOperation({
  name: 'preview_recipe',
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/recipes/{recipe_id}/preview',
  scope: 'agency.write',
  toolset: 'recipes',
  studio: true,
  write: true,
  twoStep: true,
  summary: `Dry-run a recipe on at most ${RECIPE_LIMITS.preview_leads} leads: each step's value per lead and what a run would charge. Writes nothing, costs 0 (two steps).`,
  description:
    'Dry-run a recipe version (draft by default, or live) on lead_ids (1..10) or the pool\'s first 10: per lead and step the outcome and value, and the credits a run would charge. Writes and charges nothing. Two steps: confirming records that this version passed (a plan step may make only such a draft live); a failed cell or no leads: blocked_by dry_run_failed.',
  input: z
    .object({
      client_id: idArg('client'),
      recipe_id: idArg('recipe'),
      lead_ids: z.array(idArg('lead')).min(1).max(RECIPE_LIMITS.preview_leads).optional(),
      version: z.enum(['live', 'draft']).optional(),
      confirm_token: confirmTokenArg,
    })
    .strict(),
  output: twoStepOutput(
    RecipePreview,
    z.object({
      dry_run: z.object({ recipe_id: z.string(), version: z.number().int(), version_kind: z.enum(['live', 'draft']), passed: z.literal(true), leads: z.number().int(), credits_if_run: z.number().int() }),
    }),
  ),
  run: async (call, input) => {
    const out = await runTwoStep(call, previewRecipe, input);
    return { body: out.confirmed ? out.result : out.answer };
  },
});
