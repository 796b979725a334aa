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
  description: [
    "Set what was promised to a client: kind new_prospects_per_workday (leads added to the pool per Monday-Friday), meetings_per_month (booked meetings), replies_per_month (prospects who replied) or custom (label required; the service has no data for it, so get_course shows it as not started).",
    'target > 0 (at most two decimals), start YYYY-MM-DD in the organization timezone, catch_up spread (default: a shortfall carries into the next months) or drop (each month starts afresh).',
    'The active agreement of the same kind (custom: same label, any case) is replaced in the same transaction and returned as replaced (active: false); 201 then. The same agreement again answers 200 with replaced: null and changes nothing.',
  ].join(' '),
  input: z.object({ client_id: idArg('client'), ...agreementFields }).strict(),
  output: z.object({ agreement: AgreementSchema, replaced: AgreementSchema.nullable() }),
  run: async (call, input) => {
    const out = await setAgreement(call, input);
    return { status: out.created ? 201 : 200, body: { agreement: out.agreement, replaced: out.replaced } };
  },
});
