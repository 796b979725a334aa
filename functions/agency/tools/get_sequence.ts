import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { findClient } from '../../../lib/agency/clients/view';
import { defineOperation } from '../../../lib/agency/define';
import { currentVersion, SequenceSchema, sequenceView } from '../../../lib/sequences/view';

export const getSequenceOp = defineOperation({
  name: 'get_sequence',
  method: 'GET',
  path: '/v1/agency/clients/{client_id}/sequence',
  scope: 'agency.read',
  toolset: 'engine',
  studio: true,
  write: false,
  summary: "A client's mail sequence in force: its steps (subject, body template, delay_days, condition) and version.",
  description: [
    "A client's mail sequence in force: its steps (subject, body template, delay_days, condition) and version.",
    'A client that never saved one answers version 0 with no steps. Pass the version to update_sequence as if_version.',
  ].join(' '),
  input: z.object({ client_id: idArg('client') }).strict(),
  output: z.object({ sequence: SequenceSchema }),
  run: async (call, input) => {
    const db = call.services.db;
    const client = await findClient(db, call.auth.orgId, input.client_id);
    return { body: { sequence: sequenceView(client.id, await currentVersion(db, call.auth.orgId, client.id)) } };
  },
});
