import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { columnsArg, leadFilterShape, pageShape, pickFilter } from '../../../lib/pool/filters';
import { segmentResults, SegmentSchema } from '../../../lib/pool/segments';
import { PoolLeadSchema } from '../../../lib/pool/view';

export const segmentResultsOp = defineOperation({
  name: 'segment_results',
  method: 'GET',
  path: '/v1/agency/clients/{client_id}/segments/results',
  scope: 'agency.read',
  toolset: 'engine',
  write: false,
  studio: true,
  summary: "A page of the leads of a saved segment (segment_id) or of filters given inline; paged as list_leads.",
  description: [
    "A page of the leads a segment holds: either segment_id (a saved segment; its filter as saved) or the list_leads filters inline, not both.",
    'Paged as list_leads (limit up to 200, offset = next_offset, null on the last page; columns as list_leads).',
    'segment is the saved segment (null for inline filters); filter is what was applied.',
  ].join(' '),
  input: z
    .object({
      client_id: idArg('client'),
      segment_id: idArg('segment (list_segments)').optional(),
      ...leadFilterShape,
      ...pageShape,
      columns: columnsArg(),
    })
    .strict(),
  output: z.object({
    segment: SegmentSchema.nullable(),
    filter: z.record(z.string(), z.unknown()),
    leads: z.array(PoolLeadSchema),
    next_offset: z.number().int().nullable(),
  }),
  run: async (call, input) => ({ body: await segmentResults(call, { ...input, inline: pickFilter(input) }) }),
});
