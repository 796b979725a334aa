import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { confirmTokenArg, defineOperation, twoStepOutput } from '../../../lib/agency/define';
import { ReviewSchema } from '../../../lib/batches/lead';
import { reviewReject } from '../../../lib/batches/review_reject';
import { ReviewResultSchema } from './review_approve';

export const reviewRejectOp = defineOperation({
  name: 'review_reject',
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/review/{lead_id}/reject',
  scope: 'agency.write',
  toolset: 'engine',
  studio: true,
  write: true,
  twoStep: true,
  idempotent: true,
  summary: 'Reject one lead of the open batch with a reason (two steps); it is never pushed.',
  description:
    'Reject one lead of the open batch with a reason (two steps), written or not. It is never pushed; at approve_batch or skip_batch it returns to the pool as new, and allocate_batch does not pick it again. review_approve reverses it while the batch is open.',
  input: z.object({ client_id: idArg('client'), lead_id: idArg('lead'), reason: z.string().trim().min(1).max(500), confirm_token: confirmTokenArg }).strict(),
  output: twoStepOutput(z.object({ review: ReviewSchema, reason: z.string() }), ReviewResultSchema),
  run: async (call, input) => ({ body: await reviewReject(call, input) }),
});
