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
  description:
    'Save the client\'s sequence (1-10 steps) as its next version; the same steps again: updated false. Step: subject (≤200; the first needs one, none = same thread), body (≤5000), delay_days (0-60; first 0), condition always|no_reply|no_positive_reply. Placeholders: lead fields {{first_name}}, {{custom.<key>}}, {{sender.name}}. if_version mismatch: 409 conflict.',
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
