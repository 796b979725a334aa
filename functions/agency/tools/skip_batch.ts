import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { confirmTokenArg, defineOperation, twoStepOutput } from '../../../lib/agency/define';
import { skipBatch } from '../../../lib/batches/skip';
import { BatchSchema } from '../../../lib/batches/view';

export const skipBatchOp = defineOperation({
  name: 'skip_batch',
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/batch/skip',
  scope: 'agency.write',
  toolset: 'engine',
  studio: true,
  write: true,
  twoStep: true,
  summary: "Give up the client's open batch (two steps): its leads return to the pool as new.",
  description:
    "Give up the open batch (two steps), approved or not: its leads return to the pool as new; the batch stays as history. Credits spent writing it are not refunded (the preview says how many). 409 conflict when no batch is open (a pushing or pushed batch cannot be skipped).",
  input: z.object({ client_id: idArg('client'), confirm_token: confirmTokenArg }).strict(),
  output: twoStepOutput(z.object({ batch: BatchSchema, returning_to_pool: z.number().int(), credits_spent: z.number().int() }), z.object({ batch: BatchSchema })),
  run: async (call, input) => ({ body: await skipBatch(call, input) }),
});
