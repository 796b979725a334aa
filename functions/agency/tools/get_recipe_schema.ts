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
  description:
    'Read before writing a recipe: the JSON Schema of a recipe definition { steps } (the one create_recipe and update_recipe validate with), each step type with what it does and charges, hiring_role values, output types, signal kinds, update_recipe\'s step_changes ops, limits, and the rules the schema cannot say.',
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
