import { z } from 'zod';
import { idArg, intArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { reviewBatch, ReviewItemSchema } from '../../../lib/batches/review_read';
import { BatchSchema } from '../../../lib/batches/view';

export const reviewBatchOp = defineOperation({
  name: 'review_batch',
  method: 'GET',
  path: '/v1/agency/clients/{client_id}/review',
  scope: 'agency.read',
  toolset: 'engine',
  studio: true,
  write: false,
  summary: "A page of the open batch's leads with their review status and first-mail excerpt; next_offset pages on.",
  description:
    "A page of the open batch's leads in batch order with review status, sentences lacking a source and the first mail's opening; review narrows to one status. batch null and no leads when no batch is open. Read one lead in full with review_lead.",
  input: z
    .object({
      client_id: idArg('client'),
      review: z.enum(['pending', 'approved', 'rejected']).optional(),
      offset: intArg(0, 10_000).default(0),
      limit: intArg(1, 200).default(50).describe('1..200, default 50'),
    })
    .strict(),
  output: z.object({ batch: BatchSchema.nullable(), leads: z.array(ReviewItemSchema), next_offset: z.number().int().nullable() }),
  run: async (call, input) => ({ body: await reviewBatch(call, input) }),
});
