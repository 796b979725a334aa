import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { MAX_PREVIEW_LEADS, PreviewSchema, previewSequence } from '../../../lib/sequences/preview';

export const previewSequenceOp = defineOperation({
  name: 'preview_sequence',
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/sequence/preview',
  scope: 'agency.write',
  toolset: 'engine',
  studio: true,
  write: true,
  idempotent: true,
  summary: "Dry run: render the client's sequence for up to 3 sample leads of its pool; sends and changes nothing.",
  description: [
    "Dry run: render the client's sequence for up to 3 sample leads of its pool; sends and changes nothing.",
    'lead_ids: 1 to 3 pool lead ids of this client; left out, the 3 newest leads with an email.',
    'Each mail shows its step, send_day (days after the push), subject (null: same thread as the previous mail), body and missing: the placeholders the lead has no value for, shown as [[name?]] in the text.',
    'The answer is kept as the client\'s last preview (get_sequence_preview). A client without a sequence gets 409 conflict: save one with update_sequence first.',
  ].join(' '),
  input: z
    .object({
      client_id: idArg('client'),
      lead_ids: z
        .array(idArg('pool lead'))
        .min(1)
        .max(MAX_PREVIEW_LEADS, { message: `at most ${MAX_PREVIEW_LEADS} sample leads (agency spec §8)` })
        .refine((ids) => new Set(ids).size === ids.length, { message: 'each lead once' })
        .optional(),
    })
    .strict(),
  output: z.object({ preview: PreviewSchema }),
  run: async (call, input) => ({ body: await previewSequence(call, input) }),
});
