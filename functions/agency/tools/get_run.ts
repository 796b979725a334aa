import { z } from 'zod';
import { boolArg, idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { ApiError } from '../../../lib/errors';
import { getRun } from '../../../lib/formulas/run_control';
import { RunSchema } from '../../../lib/formulas/run_view';

export const RoundSchema = z.object({ leads: z.number().int(), cells_written: z.number().int(), credits: z.number().int() });

export const getRunOp = defineOperation({
  name: 'get_run',
  method: 'GET',
  path: '/v1/agency/clients/{client_id}/runs/{run_id}',
  scope: 'agency.read',
  toolset: 'recipes',
  studio: true,
  write: false,
  summary: "A formula run's progress and counts; with continue: true, run its next round (needs agency.write).",
  description:
    'A run started by run_formula or run_signals: status (running, waiting_continue, stopped, done, failed), totals, processed, cells written, skipped, credits charged and the cap. continue: true runs the next round now (resumes a run waiting for credits); that writes, so it needs agency.write (over REST: POST the same path).',
  input: z.object({ client_id: idArg('client'), run_id: idArg('run'), continue: boolArg().optional() }).strict(),
  output: z.object({ run: RunSchema, round: RoundSchema.optional() }),
  run: async (call, input) => {
    // A GET that runs a round would let a link preview or a crawler spend credits: over REST, continue is a POST.
    if (input.continue && call.via === 'rest') throw new ApiError('validation_error', 'continue: use POST on this path with { "continue": true } to run the next round');
    return { body: await getRun(call, input) };
  },
});

export const continueRunOp = defineOperation({
  name: 'continue_run',
  restOnly: true,
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/runs/{run_id}',
  scope: 'agency.write',
  toolset: 'recipes',
  studio: true,
  write: true,
  summary: "Run a formula run's next round (get_run with continue: true).",
  input: z.object({ client_id: idArg('client'), run_id: idArg('run'), continue: z.literal(true) }).strict(),
  output: z.object({ run: RunSchema, round: RoundSchema.optional() }),
  run: async (call, input) => ({ body: await getRun(call, input) }),
});
