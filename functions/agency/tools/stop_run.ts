import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { stopRun } from '../../../lib/formulas/run_control';
import { RunSchema } from '../../../lib/formulas/run_view';

export const stopRunOp = defineOperation({
  name: 'stop_run',
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/runs/{run_id}/stop',
  scope: 'agency.write',
  toolset: 'recipes',
  studio: true,
  write: true,
  idempotent: true,
  summary: 'Stop a formula run: the values written stay, nothing more is charged.',
  description:
    'Stops a run started by run_formula (status stopped). Cells already written keep their values and their charge; no further round runs, and a round in flight when the stop lands writes and charges nothing. Stopping a finished run changes nothing (stopped: false).',
  input: z.object({ client_id: idArg('client'), run_id: idArg('run') }).strict(),
  output: z.object({ run: RunSchema, stopped: z.boolean() }),
  run: async (call, input) => ({ body: await stopRun(call, input) }),
});
