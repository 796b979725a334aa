import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { ReviewSchema } from '../../../lib/batches/lead';
import { WrittenMailSchema } from '../../../lib/batches/mails';
import { reviewLead } from '../../../lib/batches/review_read';
import { PoolLeadSchema } from '../../../lib/pool/view';

export const EditSchema = z.object({ id: z.string(), step: z.number().int(), before: WrittenMailSchema, after: WrittenMailSchema, by: z.string(), at: z.string() });

export const reviewLeadOp = defineOperation({
  name: 'review_lead',
  method: 'GET',
  path: '/v1/agency/clients/{client_id}/review/{lead_id}',
  scope: 'agency.read',
  toolset: 'engine',
  studio: true,
  write: false,
  summary: 'One lead of the open batch: its pool fields, its mails with each sentence and its source, its review and edits.',
  description:
    'One lead of the open batch (lead_id: the pool lead id): pool fields, mails (null until written) with each sentence and its source (null: unsourced, blocks review_approve; listed in missing), review status, rules used, edits newest first.',
  input: z.object({ client_id: idArg('client'), lead_id: idArg('lead') }).strict(),
  output: z.object({
    lead: PoolLeadSchema,
    review: ReviewSchema.extend({
      mails: z.array(WrittenMailSchema).nullable(),
      missing: z.array(z.object({ step: z.number().int(), sentence: z.number().int(), text: z.string() })),
      rules_used: z.array(z.string()),
      written_at: z.string().nullable(),
      writes: z.number().int(),
    }),
    edits: z.array(EditSchema),
  }),
  run: async (call, input) => ({ body: await reviewLead(call, input) }),
});
