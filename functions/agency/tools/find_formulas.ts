import { z } from 'zod';
import { defineOperation } from '../../../lib/agency/define';
import { findFormulas, LIBRARY_FILTERS } from '../../../lib/formulas/find';
import { FormulaSchema } from '../../../lib/formulas/view';

export const findFormulasOp = defineOperation({
  name: 'find_formulas',
  method: 'GET',
  path: '/v1/agency/formulas',
  scope: 'agency.read',
  toolset: 'recipes',
  studio: true,
  write: false,
  summary: 'Find formulas for a recipe column by goal or text, in the shared library and your own.',
  description:
    'Search formulas in the shared library, your own, or all (default). goal (e.g. personalise, seniority, tech stack, hiring for a role) or q free text; every word must match; neither lists all. Each shows its id (for add_column and formula steps), kind, the inputs a lead needs (missing: skipped free), output_type and credit_cost per cell.',
  input: z
    .object({
      goal: z.string().trim().min(1).max(200).optional(),
      q: z.string().trim().min(1).max(200).optional(),
      library: z.enum(LIBRARY_FILTERS).optional().describe('shared (alias saleslobe), agency or all (default)'),
    })
    .strict(),
  output: z.object({ formulas: z.array(FormulaSchema) }),
  run: async (call, input) => ({ body: await findFormulas(call, input) }),
});
