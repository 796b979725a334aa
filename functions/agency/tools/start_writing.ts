import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { confirmTokenArg, defineOperation, twoStepOutput } from '../../../lib/agency/define';
import { startWriting, StartWritingPreviewSchema, StartWritingResultSchema } from '../../../lib/writing/start';

export const startWritingOp = defineOperation({
  name: 'start_writing',
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/batch/start-writing',
  scope: 'agency.write',
  toolset: 'engine',
  studio: true,
  write: true,
  twoStep: true,
  paid: true,
  summary: "Write the open batch's mails from the sequence, lead fields, playbook, docs and active learned rules (paid, two steps).",
  description: [
    'Writes every lead of the open batch (not rejected ones), or only lead_ids, 1 credit per lead; every sentence names its source.',
    'Preview: count, credits, 2 sample leads written free, rewrite limit. Rewrites beyond 2 × batch size in 14 days: confirm_token null, blocked_by person_confirmation_required; propose the rewrite_batch step it names.',
  ].join(' '),
  input: z
    .object({
      client_id: idArg('client'),
      lead_ids: z
        .array(idArg('pool lead'))
        .min(1)
        .max(1000)
        .refine((ids) => new Set(ids).size === ids.length, { message: 'each lead once' })
        .optional()
        .describe('rewrite only these leads of the batch'),
      confirm_token: confirmTokenArg,
    })
    .strict(),
  output: twoStepOutput(StartWritingPreviewSchema, StartWritingResultSchema),
  run: async (call, input) => ({ body: await startWriting(call, input) }),
});
