import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { getSequencePreview, PreviewSchema } from '../../../lib/sequences/preview';

export const getSequencePreviewOp = defineOperation({
  name: 'get_sequence_preview',
  method: 'GET',
  path: '/v1/agency/clients/{client_id}/sequence/preview',
  scope: 'agency.read',
  toolset: 'engine',
  studio: true,
  write: false,
  summary: "The client's last stored sequence preview (null: none yet), and stale: true when the sequence changed since.",
  input: z.object({ client_id: idArg('client') }).strict(),
  output: z.object({ preview: PreviewSchema.nullable(), stale: z.boolean() }),
  run: async (call, input) => ({ body: await getSequencePreview(call, input) }),
});
