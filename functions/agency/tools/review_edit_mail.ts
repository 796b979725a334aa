import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { confirmTokenArg, defineOperation, twoStepOutput } from '../../../lib/agency/define';
import { ReviewSchema } from '../../../lib/batches/lead';
import { WrittenMailSchema } from '../../../lib/batches/mails';
import { reviewEditMail } from '../../../lib/batches/review_edit';
import { BatchSchema } from '../../../lib/batches/view';
import { EditSchema } from './review_lead';

const counts = { kept: z.number().int(), added: z.number().int(), removed: z.number().int() };

export const reviewEditMailOp = defineOperation({
  name: 'review_edit_mail',
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/review/{lead_id}/edit',
  scope: 'agency.write',
  toolset: 'engine',
  studio: true,
  write: true,
  twoStep: true,
  summary: "Replace one mail of a written lead of the open batch (two steps); the lead goes back to pending review.",
  description:
    "Replace mail `step` of a written lead (two steps); subject left out keeps it. A sentence kept verbatim keeps its source (null stays null); a new one is sourced to you (kind edit). Recorded as a review edit that learned rules are mined from; the lead returns to pending.",
  input: z
    .object({
      client_id: idArg('client'),
      lead_id: idArg('lead'),
      step: z.number().int().min(1).max(10),
      subject: z.string().trim().min(1).max(200).nullable().optional(),
      body: z.string().trim().min(1).max(5000),
      confirm_token: confirmTokenArg,
    })
    .strict(),
  output: twoStepOutput(
    z.object({ review: ReviewSchema, before: WrittenMailSchema, after: WrittenMailSchema, ...counts }),
    z.object({ review: ReviewSchema, edit: EditSchema, batch: BatchSchema }),
  ),
  run: async (call, input) => ({ body: await reviewEditMail(call, input) }),
});
