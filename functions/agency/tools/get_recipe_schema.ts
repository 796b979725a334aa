import { z } from 'zod';
import { defineOperation } from '../../../lib/agency/define';
import { recipeSchemaDoc } from '../../../lib/recipes/schema_doc';

export const getRecipeSchemaOp = defineOperation({
  name: 'get_recipe_schema',
  method: 'GET',
  path: '/v1/agency/recipes/schema',
  scope: 'agency.read',
  toolset: 'recipes',
  studio: true,
  write: false,
  summary: 'The JSON Schema of a recipe definition, the step types with what each does and costs, hiring_role values and limits.',
  description: [
    'The JSON Schema (draft 2020-12) of a recipe definition `{ steps: [...] }`, generated from the same definition create_recipe and update_recipe validate with; read it before writing a recipe.',
    'Also: each step type with what it does, whether it writes a column and what a run charges; the seven hiring_role values; output types; signal kinds; the step_changes operations of update_recipe; and the limits.',
    'Rules the JSON Schema cannot say are listed under rules (unique column keys, custom_role only with hiring_role custom, formulas that exist, no fixed pool field names).',
  ].join(' '),
  input: z.object({}).strict(),
  output: z.object({
    schema: z.record(z.string(), z.unknown()),
    step_types: z.array(z.object({ type: z.string(), description: z.string(), writes_column: z.boolean(), credits: z.string() })),
    hiring_roles: z.array(z.string()),
    output_types: z.array(z.string()),
    signal_kinds: z.array(z.string()),
    step_change_ops: z.record(z.string(), z.string()),
    rules: z.array(z.string()),
    limits: z.record(z.string(), z.number()),
  }),
  run: async () => ({ body: recipeSchemaDoc() }),
});
