import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { normaliseSteps, StepsInput } from '../../../lib/sequences/steps';
import { updateSequence } from '../../../lib/sequences/update';
import { SequenceSchema } from '../../../lib/sequences/view';

export const updateSequenceOp = defineOperation({
  name: 'update_sequence',
  method: 'PUT',
  path: '/v1/agency/clients/{client_id}/sequence',
  scope: 'agency.write',
  toolset: 'engine',
  studio: true,
  write: true,
  idempotent: true,
  summary: "Save a client's mail sequence (1 to 10 steps) as its next version; the same steps again change nothing.",
  description: [
    "Save a client's mail sequence (1 to 10 steps) as its next version; the same steps again change nothing (updated: false).",
    'Each step: subject (up to 200 characters; the first step needs one, a follow-up without one stays in the same thread), body (1 to 5000 characters), delay_days (0 to 60 days after the previous mail; the first step 0), condition (always, no_reply or no_positive_reply; default always for the first step, no_reply after).',
    'Placeholders {{first_name}}, {{company}}, {{hook}} … are the pool lead\'s fields, {{custom.<column_key>}} its custom columns, {{sender.name}} the sender; any other name is refused.',
    'if_version: the version you read with get_sequence; if the sequence changed since, 409 conflict with the current sequence. Check the result with preview_sequence.',
  ].join(' '),
  input: z
    .object({
      client_id: idArg('client'),
      steps: StepsInput,
      if_version: z.number().int().min(0).optional().describe('the version you read (0: none yet); a different current version is refused with 409 conflict'),
    })
    .strict(),
  output: z.object({ sequence: SequenceSchema, updated: z.boolean() }),
  run: async (call, input) => ({ body: await updateSequence(call, { ...input, steps: normaliseSteps(input.steps) }) }),
});
