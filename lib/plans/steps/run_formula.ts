import { z } from 'zod';
import { ApiError } from '../../errors';
import { insertFormulaRun, publishFirstRound } from '../../formulas/run_create';
import { planRun, type RunInput } from '../../formulas/run_plan';
import type { StepContext, StepKind } from '../step_kind';
import { oncePerStep } from './effect';

const Params = z
  .object({
    recipe_id: z.uuid({ message: 'must be the id of a recipe of this client (a UUID)' }),
    column_key: z.string().trim().min(1).max(64).optional().describe("one column of the recipe's live version; default: every column"),
    list_id: z.uuid().optional().describe('a saved segment or an import; default: the whole pool'),
    overwrite: z.boolean().optional(),
    max_credits: z.number().int().min(1).max(100_000).describe('the most the run may charge; the plan shows it and the run stops there'),
  })
  .strict();
type Params = z.infer<typeof Params>;

const runInput = (ctx: StepContext, p: Params): RunInput => ({ client_id: ctx.clientId, recipe_id: p.recipe_id, column_key: p.column_key, list_id: p.list_id, overwrite: p.overwrite });

/**
 * Starts a formula run over the recipe's live columns on its day, capped at max_credits; the run goes on in
 * rounds on the queue and charges per cell written (references under the run, which this step creates once).
 * Written cells are paid for, so it is not undoable.
 */
export const runFormulaStep: StepKind<Params> = {
  kind: 'run_formula',
  summary: (p) => `Run ${p.column_key ? `column ${p.column_key}` : 'every column'} of recipe ${p.recipe_id} (at most ${p.max_credits} credits)`,
  params: Params,
  buys: false,
  undoable: false,
  credits: (p) => p.max_credits,
  dryRun: async (ctx, p) => {
    try {
      const plan = await planRun(ctx.services.db, ctx.orgId, runInput(ctx, p));
      if (plan.creditCeiling > p.max_credits) return [`Running it now could cost up to ${plan.creditCeiling} credits, above its max_credits of ${p.max_credits}; the run would stop at ${p.max_credits}.`];
      return [];
    } catch (err) {
      if (err instanceof ApiError) return [`${err.message.charAt(0).toUpperCase()}${err.message.slice(1)}.`];
      throw err;
    }
  },
  run: async (ctx, p) => {
    const queue = ctx.services.queue;
    const result = await oncePerStep(ctx, 'run_formula', async (tx) => {
      const plan = await planRun(tx, ctx.orgId, runInput(ctx, p));
      if (plan.leadIds.length === 0) return { run_id: null, leads: 0, credit_cap: 0 };
      const only = plan.columns.length === 1 ? plan.columns[0] : null;
      const cap = Math.min(plan.creditCeiling, p.max_credits);
      const run = await insertFormulaRun(tx, queue, {
        orgId: ctx.orgId,
        clientId: ctx.clientId,
        recipeId: p.recipe_id,
        recipeVersion: plan.version,
        formulaRef: only?.def.ref ?? null,
        columnKey: p.column_key ?? null,
        onlyEmpty: p.overwrite !== true,
        leadIds: plan.leadIds,
        creditCap: cap,
        keyId: null,
        actor: ctx.actor,
        now: ctx.now,
      });
      return { run_id: run.id, leads: plan.leadIds.length, credit_cap: cap, version: plan.version };
    });
    if (typeof result.run_id === 'string') await publishFirstRound(queue, result.run_id);
    return result;
  },
};
