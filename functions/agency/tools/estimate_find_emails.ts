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
  description: [
    "How many of the client's leads the email waterfall could search and the most it could cost: every lead waiting for an email, or only lead_ids (each must be a lead of this client's pool).",
    'A lead is eligible with a person name (first and last, or a full name) and a company domain or website; leads missing either are counted under skipped.missing_inputs and cost nothing.',
    'Price: 1 credit per email found and written, nothing for misses, so max_credits is the eligible count. Run it with run_find_emails.',
  ].join(' '),
  input: z.object({ client_id: idArg('client'), lead_ids: leadIdsQueryArg.optional() }).strict(),
  output: EstimateSchema,
  run: async (call, input) => ({ body: await estimateFindEmails(call, input) }),
});
