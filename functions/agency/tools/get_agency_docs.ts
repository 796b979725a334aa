import { z } from 'zod';
import { DocsSchema, getAgencyDocs } from '../../../lib/agency/account/agency_docs';
import { defineOperation } from '../../../lib/agency/define';

export const getAgencyDocsOp = defineOperation({
  name: 'get_agency_docs',
  method: 'GET',
  path: '/v1/agency/docs',
  scope: 'agency.read',
  toolset: 'account',
  write: false,
  summary: "The agency's own notes for its assistant (how the agency works, tone, client quirks). Read them before acting for the agency.",
  input: z.object({}).strict(),
  output: z.object({ docs: DocsSchema }),
  run: async (call) => ({ body: { docs: await getAgencyDocs(call) } }),
});
