import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { runTwoStep } from '../../../lib/agency/confirm';
import { confirmTokenArg, defineOperation, twoStepOutput } from '../../../lib/agency/define';
import { addColumn } from '../../../lib/recipes/add_column';
import { RECIPE_LIMITS, OUTPUT_TYPES } from '../../../lib/recipes/schema';
import { VersionPreviewSchema, VersionResultSchema } from './update_recipe';

const AddColumnPreview = VersionPreviewSchema.extend({
  step: z.record(z.string(), z.unknown()).describe('the column step appended'),
  step_number: z.number().int(),
  formula: z.object({ ref: z.string(), name: z.string(), output_type: z.string(), credit_cost: z.number().int() }).nullable(),
  existing_column: z.object({ key: z.string(), type: z.string() }).nullable().describe('a pool column of this key that already exists (a run writes into it)'),
});

export const addColumnOp = defineOperation({
  name: 'add_column',
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/columns',
  scope: 'agency.write',
  toolset: 'recipes',
  studio: true,
  write: true,
  twoStep: true,
  summary: "Add a formula or question column to a client's recipe as a new draft version (two steps).",
  description:
    'Append a column step writing column_key to the recipe as a new draft version (two steps). Give formula (library key or your formula id; find_formulas) or question (asked to the AI per lead, {field} placeholders) with output_type (default text). Invalid: 422 recipe_invalid. The preview shows the cost per cell and the diff. Fill it with run_formula.',
  input: z
    .object({
      client_id: idArg('client'),
      recipe_id: idArg('recipe'),
      column_key: z.string().trim().min(1).max(RECIPE_LIMITS.max_column_key_length),
      formula: z.string().trim().min(1).max(100).optional(),
      question: z.string().trim().min(1).max(RECIPE_LIMITS.max_question_length).optional(),
      output_type: z.enum(OUTPUT_TYPES).optional(),
      confirm_token: confirmTokenArg,
    })
    .strict(),
  output: twoStepOutput(AddColumnPreview, VersionResultSchema),
  run: async (call, input) => {
    const out = await runTwoStep(call, addColumn, input);
    return { body: out.confirmed ? out.result : out.answer };
  },
});
