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
  description: [
    `Finds emails for the client's leads waiting for one (or only lead_ids), at most ${MAX_RUN_LEADS} per run: for each lead the providers are asked in order until one finds the address, which is then verified.`,
    'Without confirm_token: a preview of the run (its leads, providers, max_credits) and a confirm_token; nothing is searched.',
    `With the token: runs ONE round of up to ${ROUND_SIZE} leads and answers the run (status, processed, total, found, credits) and the round's leads with their outcome.`,
    'While run.status is waiting_continue, call again with exactly the same arguments and the same confirm_token for the next round; the token stays valid while the run is open (at most 24 hours). At done the run is finished.',
    'An address found is written to the lead (email, email_status valid or risky, status new) and costs 1 credit; not used and not charged: invalid addresses, addresses on the never-mail list, addresses another lead of the pool already has, and misses.',
    'A round needs credits for all its leads up front (else insufficient_credits and nothing is searched). error / rate_limited outcomes leave the lead waiting for a later run; retry_after_sec says how long a provider asked to wait.',
  ].join(' '),
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
