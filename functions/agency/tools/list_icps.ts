import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { IcpWithCountSchema, listIcps } from '../../../lib/pool/icps';

export const listIcpsOp = defineOperation({
  name: 'list_icps',
  method: 'GET',
  path: '/v1/agency/clients/{client_id}/icps',
  scope: 'agency.read',
  toolset: 'leads',
  write: false,
  studio: true,
  summary: "The client's ideal customer profiles (ICPs), each with its rules and how many pool leads it matched.",
  description: [
    "The client's ICPs, oldest first: rules (countries, titles, volume_bands, keywords; a lead matches when it meets every rule given) and leads, the count of pool leads (not removed) matched to it.",
    'ICPs are created by a person in the app (admin API); filter the pool by one with list_leads icp_id.',
  ].join(' '),
  input: z.object({ client_id: idArg('client') }).strict(),
  output: z.object({ icps: z.array(IcpWithCountSchema) }),
  run: async (call, input) => ({ body: await listIcps(call, input) }),
});
