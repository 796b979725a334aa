import { z } from 'zod';
import { boolArg, idArg } from '../../../lib/agency/args';
import { runTwoStep } from '../../../lib/agency/confirm';
import { confirmTokenArg, defineOperation, twoStepOutput } from '../../../lib/agency/define';
import { requestPublishFormula } from '../../../lib/formulas/own';
import { FormulaSchema } from '../../../lib/formulas/view';

export const requestPublishFormulaOp = defineOperation({
  name: 'request_publish_formula',
  method: 'POST',
  path: '/v1/agency/formulas/{formula_id}/publish',
  scope: 'agency.write',
  toolset: 'recipes',
  studio: true,
  write: true,
  twoStep: true,
  idempotent: true,
  summary: 'Offer one of your formulas to the shared library (two steps; paying workspaces only).',
  description:
    'Request review of your formula into the shared library (two steps; paying workspaces only, else 403 not_paying). It stays yours and keeps working. author_opt_in: true shows your agency as the author; else anonymous.',
  input: z
    .object({
      formula_id: idArg('formula of yours'),
      author_opt_in: boolArg().optional(),
      confirm_token: confirmTokenArg,
    })
    .strict(),
  output: twoStepOutput(
    z.object({ formula: FormulaSchema, author: z.string().nullable(), publish_status: z.literal('requested') }),
    z.object({ formula: FormulaSchema, author: z.string().nullable() }),
  ),
  run: async (call, input) => {
    const out = await runTwoStep(call, requestPublishFormula, input);
    return { body: out.confirmed ? out.result : out.answer };
  },
});
