import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { batchStatus, BatchStatusSchema } from '../../../lib/batches/status';

export const batchStatusOp = defineOperation({
  name: 'batch_status',
  method: 'GET',
  path: '/v1/agency/clients/{client_id}/batch',
  scope: 'agency.read',
  toolset: 'engine',
  studio: true,
  write: false,
  summary: "The client's open batch (else its latest; null if none) with review counts, credits and what waits for whom (next).",
  description:
    "The client's open batch (else its latest; null if none): leads, written, review counts, sentences lacking a source, credits spent writing, rewrite credits in 14 days against the limit (twice the leads), and next: what waits, for whom, with the tool.",
  input: z.object({ client_id: idArg('client') }).strict(),
  output: z.object({ batch: BatchStatusSchema.nullable(), next: z.string() }),
  run: async (call, input) => ({ body: await batchStatus(call, input) }),
});
