import { z } from 'zod';
import { boolArg, idArg } from '../../../lib/agency/args';
import { runTwoStep, type PreviewAnswer } from '../../../lib/agency/confirm';
import { confirmTokenArg, defineOperation, twoStepOutput } from '../../../lib/agency/define';
import { ApiError } from '../../../lib/errors';
import { CONFIRM_LARGE_ABOVE, MAX_RUN_LEADS, type RunInput } from '../../../lib/formulas/run_plan';
import { runFormula, type RunFormulaPreview } from '../../../lib/formulas/run_start';
import { ROUND_SIZE } from '../../../lib/formulas/run_round';
import { publishFirstRound } from '../../../lib/formulas/run_create';
import { RunSchema } from '../../../lib/formulas/run_view';

const ColumnPreview = z.object({
  column_key: z.string(),
  formula: z.string(),
  name: z.string(),
  kind: z.string(),
  output_type: z.string(),
  credit_cost: z.number().int(),
  cells: z.number().int().describe('cells to evaluate'),
  already_filled: z.number().int().describe('cells that hold a value and are left alone (overwrite: true rewrites them)'),
  missing_inputs: z.number().int().describe('leads lacking an input: skipped for 0 credits'),
});

const RunPreviewSchema = z.object({
  recipe_id: z.string(),
  version: z.number().int().describe('the live version that runs'),
  list: z.object({ kind: z.enum(['lead_ids', 'segment', 'import', 'pool']), id: z.string().nullable(), name: z.string().nullable() }),
  columns: z.array(ColumnPreview),
  leads: z.number().int().describe('leads with at least one cell to evaluate'),
  leads_considered: z.number().int(),
  beyond_run: z.number().int().describe(`leads past the ${MAX_RUN_LEADS} a run takes; run again for them`),
  cells: z.number().int(),
  credit_ceiling: z.number().int().describe('cells × credit_cost: the most the run can charge; empty results cost nothing'),
  balance: z.number().int(),
  round_size: z.number().int(),
  overwrite: z.boolean(),
  sample_lead_ids: z.array(z.string()),
});

/** The tool's `credits` is the run's ceiling: what confirming commits to, charged round by round as cells are written. */
const withCeiling = (a: PreviewAnswer<RunFormulaPreview>) => ({ ...a, credits: a.preview.credit_ceiling });

export const runFormulaOp = defineOperation({
  name: 'run_formula',
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/recipes/{recipe_id}/run',
  scope: 'agency.write',
  toolset: 'recipes',
  studio: true,
  write: true,
  twoStep: true,
  paid: true,
  openWorld: true,
  summary: "Run a recipe's formula columns over the pool, a list or some leads (paid, two steps).",
  description:
    'Evaluate the live recipe\'s column steps (column_key, else all) on lead_ids, list_id (segment or import) or the whole pool, up to 10000 leads; only empty cells unless overwrite (paid, two steps). The preview gives credit_ceiling; above 200 credits it needs confirm_large: true. Confirmed, it runs in the background: follow with get_run; stop_run stops it.',
  input: z
    .object({
      client_id: idArg('client'),
      recipe_id: idArg('recipe'),
      column_key: z.string().regex(/^[a-z][a-z0-9_]*$/).max(64).optional(),
      lead_ids: z.array(idArg('pool lead')).min(1).max(MAX_RUN_LEADS).optional(),
      list_id: idArg('segment or import').optional(),
      overwrite: boolArg().optional(),
      confirm_large: boolArg().optional(),
      confirm_token: confirmTokenArg,
    })
    .strict(),
  output: twoStepOutput(RunPreviewSchema, z.object({ run: RunSchema })),
  run: async (call, input) => {
    try {
      const out = await runTwoStep(call, runFormula, input as RunInput);
      if (!out.confirmed) return { body: withCeiling(out.answer) };
      await publishFirstRound(call.services.queue, out.result.run.id);
      return { body: out.result };
    } catch (err) {
      if (err instanceof ApiError && err.code === 'preview_stale' && err.extra.body?.preview) {
        throw new ApiError('preview_stale', err.message, { body: withCeiling(err.extra.body as PreviewAnswer<RunFormulaPreview>) });
      }
      throw err;
    }
  },
});
