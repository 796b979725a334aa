import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { confirmTokenArg, defineOperation, twoStepOutput } from '../../../lib/agency/define';
import { approveBatch } from '../../../lib/batches/approve';
import { BatchSchema } from '../../../lib/batches/view';

export const approveBatchOp = defineOperation({
  name: 'approve_batch',
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/batch/approve',
  scope: 'agency.write',
  toolset: 'engine',
  studio: true,
  write: true,
  twoStep: true,
  summary: "Approve the client's open batch (two steps): its written leads not rejected, pending ones included; never pushes.",
  description:
    "Approves every written lead not rejected, those still pending review too. No token while a lead is unwritten (blocked_by conflict) or a pending lead has a sentence without a source (blocked_by source_missing: edit or reject it). Rejected leads return to the pool. Pushes nothing: start_campaign does, as a plan step.",
  input: z.object({ client_id: idArg('client'), confirm_token: confirmTokenArg }).strict(),
  output: twoStepOutput(
    z.object({
      batch: BatchSchema,
      to_push: z.number().int(),
      approves_pending: z.number().int().describe('written leads still pending review that the approval approves'),
      waiting: z.object({ not_written: z.number().int(), source_missing: z.number().int() }),
    }),
    z.object({ batch: BatchSchema }),
  ),
  run: async (call, input) => ({ body: await approveBatch(call, input) }),
});
