import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { confirmTokenArg, defineOperation, twoStepOutput } from '../../../lib/agency/define';
import { previewRun } from '../../../lib/waterfall/preview';
import { runRound } from '../../../lib/waterfall/round';
import { RoundResultSchema, RunPreviewSchema } from '../../../lib/waterfall/schema';
import { MAX_RUN_LEADS, ROUND_SIZE } from '../../../lib/waterfall/selection';

export const runFindEmailsOp = defineOperation({
  name: 'run_find_emails',
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/waterfall/run',
  scope: 'agency.write',
  toolset: 'leads',
  studio: true,
  write: true,
  twoStep: true,
  paid: true,
  openWorld: true,
  summary: `Find work emails for waiting leads through the email-finder waterfall, ${ROUND_SIZE} leads per round (paid, two steps).`,
  description:
    'Find emails for the client\'s leads waiting for one (or lead_ids), up to 1000 per run, through the finder waterfall (paid, two steps). Each confirmed call runs one round of 25 leads; while run.status is waiting_continue, repeat with the same arguments and token (valid while the run is open, 24 h at most). 1 credit per address found and written; misses are free.',
  input: z
    .object({
      client_id: idArg('client'),
      lead_ids: z.array(idArg('pool lead')).min(1).max(MAX_RUN_LEADS).optional(),
      confirm_token: confirmTokenArg,
    })
    .strict(),
  output: twoStepOutput(RunPreviewSchema, RoundResultSchema),
  run: async (call, input) => ({ body: input.confirm_token ? await runRound(call, { ...input, confirm_token: input.confirm_token }) : await previewRun(call, input) }),
});
