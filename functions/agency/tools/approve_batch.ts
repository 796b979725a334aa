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
  summary: "Approve the client's open batch once every lead not rejected is written and approved (two steps); never pushes.",
  description:
    "Approve the open batch (two steps) once every lead not rejected is written and approved; until then the preview has no token (blocked_by conflict, naming how many wait). Rejected leads return to the pool. Pushes nothing: start_campaign does, as a plan step.",
  input: z.object({ client_id: idArg('client'), confirm_token: confirmTokenArg }).strict(),
  output: twoStepOutput(
    z.object({ batch: BatchSchema, to_push: z.number().int(), waiting: z.object({ not_written: z.number().int(), not_reviewed: z.number().int() }) }),
    z.object({ batch: BatchSchema }),
  ),
  run: async (call, input) => ({ body: await approveBatch(call, input) }),
});
