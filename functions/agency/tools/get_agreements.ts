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
  description:
    'The active agreements of the organization\'s clients (or client_id\'s): kind (new_prospects_per_workday, meetings_per_month, replies_per_month, custom with label), target, start and catch_up. At most one active per kind (custom: per label); set_agreement replaces it; get_course shows progress.',
  input: z.object({ client_id: idArg('client').optional() }).strict(),
  output: z.object({ agreements: z.array(AgreementSchema) }),
  run: async (call, input) => ({ body: await listAgreements(call, input) }),
});
