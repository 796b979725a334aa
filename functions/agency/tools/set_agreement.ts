import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { agreementFields } from '../../../lib/agreements/input';
import { setAgreement } from '../../../lib/agreements/set';
import { AgreementSchema } from '../../../lib/agreements/view';

export const setAgreementOp = defineOperation({
  name: 'set_agreement',
  method: 'POST',
  path: '/v1/agency/clients/{client_id}/agreements',
  scope: 'agency.write',
  toolset: 'plans',
  studio: true,
  write: true,
  // Setting the agreement that is already active changes nothing (replaced: null, 200).
  idempotent: true,
  summary: "Set a client's agreement of one kind: it replaces the active one of the same kind (custom: the same label).",
  description:
    'Set what was promised to a client: kind new_prospects_per_workday, meetings_per_month, replies_per_month or custom (label required; no data, so not started). target > 0, start YYYY-MM-DD, catch_up spread (default: shortfall carries over) or drop. Replaces the active one of the same kind (custom: same label), returned as replaced; the same again changes nothing.',
  input: z.object({ client_id: idArg('client'), ...agreementFields }).strict(),
  output: z.object({ agreement: AgreementSchema, replaced: AgreementSchema.nullable() }),
  run: async (call, input) => {
    const out = await setAgreement(call, input);
    return { status: out.created ? 201 : 200, body: { agreement: out.agreement, replaced: out.replaced } };
  },
});
