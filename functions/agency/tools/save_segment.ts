import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { LeadFilterSchema } from '../../../lib/pool/filters';
import { saveSegment, SegmentSchema } from '../../../lib/pool/segments';

export const saveSegmentOp = defineOperation({
  name: 'save_segment',
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/segments',
  scope: 'agency.write',
  toolset: 'engine',
  write: true,
  studio: true,
  // Saving under a name that exists replaces that segment's filter: a repeat leaves the same one segment.
  idempotent: true,
  summary: "Save a filter over the client's pool as a named segment; the same name replaces that segment's filter (its id stays).",
  description:
    'Save a filter over the client\'s pool (the list_leads filters) under a name; an existing name (exact, trimmed) replaces its filter and keeps its id. Answers how many leads it holds now; read them with segment_results.',
  input: z
    .object({
      client_id: idArg('client'),
      name: z.string().trim().min(1).max(100),
      filter: LeadFilterSchema.describe('the list_leads filters; {} is the whole pool without removed leads'),
    })
    .strict(),
  output: z.object({ segment: SegmentSchema }),
  run: async (call, input) => ({ body: await saveSegment(call, input) }),
});
