import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { confirmTokenArg, defineOperation, twoStepOutput } from '../../../lib/agency/define';
import { ReviewSchema } from '../../../lib/batches/lead';
import { reviewApprove } from '../../../lib/batches/review_approve';
import { BatchSchema } from '../../../lib/batches/view';

export const MissingSchema = z.array(z.object({ step: z.number().int(), sentence: z.number().int(), text: z.string() }));
export const ReviewResultSchema = z.object({ review: ReviewSchema, batch: BatchSchema });

export const reviewApproveOp = defineOperation({
  name: 'review_approve',
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/review/{lead_id}/approve',
  scope: 'agency.write',
  toolset: 'engine',
  studio: true,
  write: true,
  twoStep: true,
  idempotent: true,
  summary: 'Approve one written lead of the open batch (two steps); refused while a sentence has no source.',
  description:
    'Approve one written lead of the open batch (two steps). While a sentence has no source the preview has no token (blocked_by source_missing, naming each): replace it with review_edit_mail. Not written yet or batch approved: 409 conflict.',
  input: z.object({ client_id: idArg('client'), lead_id: idArg('lead'), confirm_token: confirmTokenArg }).strict(),
  output: twoStepOutput(
    z.object({ review: ReviewSchema, mails: z.number().int(), sentences: z.number().int(), source_missing: MissingSchema }),
    ReviewResultSchema,
  ),
  run: async (call, input) => ({ body: await reviewApprove(call, input) }),
});
