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
  description: [
    `Looks up recent signals of the leads' companies (by their domain or website): every lead of the pool, or only lead_ids, at most ${MAX_RUN_LEADS} per run; kinds narrows them (default all four: hiring, funding, tech_change, news).`,
    'Without confirm_token: a preview (the leads, what is skipped, max_credits = the ceiling, also in credits) and a confirm_token; nothing is looked up.',
    `With the token: the run starts and goes in rounds of ${ROUND_SIZE} leads as queued jobs; the answer is the run. Follow it with get_run (run_id); it ends done.`,
    'Price: 1 credit per lead with at least one signal found, charged as each round commits; nothing for leads without a signal, without a domain, or already charged today for the same kinds. If credits run out the run waits (waiting_continue) and get_run with continue: true resumes it.',
    'Found signals are stored per lead (read them with read_signals); a signal found again is not stored twice.',
  ].join(' '),
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
