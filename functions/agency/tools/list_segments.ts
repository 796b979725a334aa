import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { listSegments, SegmentSchema } from '../../../lib/pool/segments';

export const listSegmentsOp = defineOperation({
  name: 'list_segments',
  method: 'GET',
  path: '/v1/agency/clients/{client_id}/segments',
  scope: 'agency.read',
  toolset: 'engine',
  write: false,
  studio: true,
  summary: "The client's saved segments by name, each with its filter and how many pool leads it holds now.",
  input: z.object({ client_id: idArg('client') }).strict(),
  output: z.object({ segments: z.array(SegmentSchema) }),
  run: async (call, input) => ({ body: await listSegments(call, input) }),
});
