import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { confirmTokenArg, defineOperation, twoStepOutput } from '../../../lib/agency/define';
import { kindsArg } from '../../../lib/signals/kinds';
import { runSignals } from '../../../lib/signals/run';
import { SignalsRunPreviewSchema, SignalsRunSchema } from '../../../lib/signals/schema';
import { MAX_RUN_LEADS, ROUND_SIZE } from '../../../lib/signals/selection';

export const runSignalsOp = defineOperation({
  name: 'run_signals',
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/signals/run',
  scope: 'agency.write',
  toolset: 'signals',
  studio: true,
  write: true,
  twoStep: true,
  paid: true,
  openWorld: true,
  summary: `Look up hiring, funding, tech-change and news signals for the client's leads through the enrichment provider (paid, two steps).`,
  description:
    'Look up hiring, funding, tech_change and news signals for the pool\'s companies (or lead_ids; kinds narrows), up to 1000 leads per run (paid, two steps). Confirmed, it runs in rounds of 25: follow with get_run; continue: true resumes a run waiting for credits. 1 credit per lead with a signal found, none for the same kinds twice a day. Read results with read_signals.',
  input: z
    .object({
      client_id: idArg('client'),
      lead_ids: z.array(idArg('pool lead')).min(1).max(MAX_RUN_LEADS).optional(),
      kinds: kindsArg.optional(),
      confirm_token: confirmTokenArg,
    })
    .strict(),
  output: twoStepOutput(SignalsRunPreviewSchema, z.object({ run: SignalsRunSchema })),
  run: async (call, input) => ({ body: await runSignals(call, input) }),
});
