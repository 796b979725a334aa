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
  description:
    'Dry run: render the client\'s sequence for lead_ids (1-3 pool leads; default the 3 newest with an email); sends nothing. Each mail: step, send_day, subject (null: same thread), body and missing placeholders, shown as [[name?]]. Kept as the last preview (get_sequence_preview). No sequence: 409 conflict.',
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
