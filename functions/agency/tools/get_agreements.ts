import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { listAgreements } from '../../../lib/agreements/list';
import { AgreementSchema } from '../../../lib/agreements/view';

export const getAgreementsOp = defineOperation({
  name: 'get_agreements',
  method: 'GET',
  path: '/v1/agency/agreements',
  scope: 'agency.read',
  toolset: 'plans',
  studio: true,
  write: false,
  summary: "The active agreements of the organization's clients (what was promised to each client).",
  description: [
    "The active agreements of the organization's clients, or of one client with client_id: kind (new_prospects_per_workday, meetings_per_month, replies_per_month, custom with a label), target, start (YYYY-MM-DD) and catch_up (spread or drop).",
    'A client has at most one active agreement per kind (per label for custom ones); set_agreement replaces it. get_course shows how each is going.',
  ].join(' '),
  input: z.object({ client_id: idArg('client').optional() }).strict(),
  output: z.object({ agreements: z.array(AgreementSchema) }),
  run: async (call, input) => ({ body: await listAgreements(call, input) }),
});
