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
  description: [
    "How many of the client's leads a signals run could look up and the most it could charge: every lead of the pool, or only lead_ids (each must be a lead of this client); kinds narrows the signals (default all four: hiring, funding, tech_change, news).",
    'Price: 1 credit per lead with at least one signal found, nothing for leads where none is found, so max_credits is an upper bound: the leads with a company domain or website. Leads without one are skipped.no_domain and cost 0; leads already charged today for the same kinds are refreshed for free (already_paid_today).',
    'Run it with run_signals.',
  ].join(' '),
  input: z.object({ client_id: idArg('client'), lead_ids: leadIdsQueryArg.optional(), kinds: kindsArg.optional() }).strict(),
  output: SignalsEstimateSchema,
  run: async (call, input) => ({ body: await estimateSignals(call, input) }),
});
