import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { estimateSignals } from '../../../lib/signals/estimate';
import { kindsArg } from '../../../lib/signals/kinds';
import { SignalsEstimateSchema } from '../../../lib/signals/schema';
import { MAX_RUN_LEADS } from '../../../lib/signals/selection';

/** Lead ids as a JSON list, or from a query string as repeated `lead_ids=` or one comma list. */
const leadIdsQueryArg = z
  .union([z.array(z.string()), z.string()])
  .transform((v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : v))
  .pipe(z.array(idArg('pool lead')).min(1).max(MAX_RUN_LEADS));

export const estimateSignalsOp = defineOperation({
  name: 'estimate_signals',
  method: 'GET',
  path: '/v1/agency/clients/{client_id}/signals/estimate',
  scope: 'agency.read',
  toolset: 'signals',
  studio: true,
  write: false,
  summary: 'The most a signals run over these leads could cost: an upper bound (reads only).',
  description:
    'The most a signals run over the pool (or lead_ids; kinds narrows) could charge, reading only: max_credits = leads with a company domain or website, 1 credit per lead with a signal found. Leads without a domain cost 0 (skipped.no_domain); those charged today for the same kinds are free (already_paid_today).',
  input: z.object({ client_id: idArg('client'), lead_ids: leadIdsQueryArg.optional(), kinds: kindsArg.optional() }).strict(),
  output: SignalsEstimateSchema,
  run: async (call, input) => ({ body: await estimateSignals(call, input) }),
});
