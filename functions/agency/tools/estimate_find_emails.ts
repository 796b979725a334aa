import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { estimateFindEmails } from '../../../lib/waterfall/estimate';
import { EstimateSchema } from '../../../lib/waterfall/schema';
import { MAX_RUN_LEADS } from '../../../lib/waterfall/selection';

/** Lead ids as a JSON list, or from a query string as repeated `lead_ids=` or one comma list. */
const leadIdsQueryArg = z
  .union([z.array(z.string()), z.string()])
  .transform((v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : v))
  .pipe(z.array(idArg('pool lead')).min(1).max(MAX_RUN_LEADS));

export const estimateFindEmailsOp = defineOperation({
  name: 'estimate_find_emails',
  method: 'GET',
  path: '/v1/agency/clients/{client_id}/waterfall/estimate',
  scope: 'agency.read',
  toolset: 'leads',
  studio: true,
  write: false,
  summary: 'What finding emails for waiting leads would cost (reads only).',
  description:
    'How many waiting leads (or lead_ids) the email waterfall could search and the most it could cost, reading only. A lead needs a person name and a company domain or website (else skipped.missing_inputs, free). 1 credit per email found, so max_credits is the eligible count. Run it with run_find_emails.',
  input: z.object({ client_id: idArg('client'), lead_ids: leadIdsQueryArg.optional() }).strict(),
  output: EstimateSchema,
  run: async (call, input) => ({ body: await estimateFindEmails(call, input) }),
});
