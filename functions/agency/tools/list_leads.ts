import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { columnsArg, leadFilterShape, pageShape } from '../../../lib/pool/filters';
import { listLeads } from '../../../lib/pool/list_leads';
import { PoolLeadSchema } from '../../../lib/pool/view';

export const listLeadsOp = defineOperation({
  name: 'list_leads',
  method: 'GET',
  path: '/v1/agency/clients/{client_id}/leads',
  scope: 'agency.read',
  toolset: 'leads',
  write: false,
  studio: true,
  summary: "A page of the client's lead pool, filtered; next_offset pages on (null on the last page).",
  description:
    'A page of the client\'s pool, oldest first; pass next_offset as offset (null on the last page). Filters combine: icp_id, country, volume_band_min, verified_only, status (removed leads only with status removed), q. not_contacted: true keeps leads never batched, replied or in the sequencer snapshot, each with contact_check. columns picks up to 12 custom keys.',
  input: z
    .object({
      client_id: idArg('client'),
      ...leadFilterShape,
      ...pageShape,
      columns: columnsArg(),
    })
    .strict(),
  output: z.object({ leads: z.array(PoolLeadSchema), next_offset: z.number().int().nullable() }),
  run: async (call, input) => ({ body: await listLeads(call, input) }),
});
