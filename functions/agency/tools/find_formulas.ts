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
  description: [
    'Searches the shared formula library (library: shared, alias saleslobe) and your own formulas (agency), or both (all, the default).',
    'goal: what the column is for ("personalise", "seniority", "tech stack", "hiring for a role", "timezone"); q: free text. Give one or neither (neither lists every formula). Every word must match; formulas whose goals carry the words come first.',
    "Each formula shows its id (what a recipe's formula step or add_column names), kind (expression over the lead's fields, lookup through the enrichment port, question to the AI), the inputs a lead needs (a lead missing one is skipped for 0 credits), output_type and credit_cost per cell written.",
  ].join(' '),
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
