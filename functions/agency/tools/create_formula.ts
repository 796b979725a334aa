import { z } from 'zod';
import { defineOperation } from '../../../lib/agency/define';
import { createFormula, LOOKUP_FIELDS } from '../../../lib/formulas/own';
import { FormulaSchema } from '../../../lib/formulas/view';

// The spec names no tool that creates an agency formula; this REST route does (docs/formulas.md), so an agency's
// own formulas can exist, be found with find_formulas and be offered to the library with request_publish_formula.
export const createFormulaOp = defineOperation({
  name: 'create_formula',
  restOnly: true,
  method: 'POST',
  path: '/v1/agency/formulas',
  scope: 'agency.write',
  toolset: 'recipes',
  studio: true,
  write: true,
  summary: "Create one of your own formulas (an expression over the lead's fields, a lookup or a question).",
  input: z
    .object({
      name: z.string().trim().min(1).max(120),
      description: z.string().max(1000).optional(),
      goals: z.array(z.string().trim().min(1).max(60)).max(10).optional(),
      kind: z.enum(['expression', 'lookup', 'question']),
      expression: z.string().min(1).max(2000).optional().describe('kind expression: e.g. concat(greeting(first_name, country), " ", clean_company(company))'),
      question: z.string().min(1).max(1000).optional().describe('kind question: {field} placeholders are filled from the lead'),
      field: z.enum(LOOKUP_FIELDS).optional().describe('kind lookup: the company fact to read through the enrichment port'),
      inputs: z.array(z.string().regex(/^[a-z][a-z0-9_]*$/).max(64)).max(20).optional().describe('the fields a lead must have (default: those the expression or question names)'),
      output_type: z.enum(['text', 'number', 'boolean', 'url']),
    })
    .strict(),
  output: z.object({ formula: FormulaSchema }),
  run: async (call, input) => ({ body: await createFormula(call, input) }),
});
