import { z } from 'zod';
import { idArg, intArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { kindsArg } from '../../../lib/signals/kinds';
import { readSignals } from '../../../lib/signals/read';
import { ReadSignalsSchema } from '../../../lib/signals/schema';

/** Lead ids as a JSON list, or from a query string as repeated `lead_ids=` or one comma list. */
const leadIdsQueryArg = z
  .union([z.array(z.string()), z.string()])
  .transform((v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : v))
  .pipe(z.array(idArg('pool lead')).min(1).max(500));

export const readSignalsOp = defineOperation({
  name: 'read_signals',
  method: 'GET',
  path: '/v1/agency/clients/{client_id}/signals',
  scope: 'agency.read',
  toolset: 'signals',
  studio: true,
  write: false,
  summary: "The signals stored for the client's leads (hiring, funding, tech changes, news), per lead (reads only).",
  description: [
    "The signals run_signals found for this client's leads, grouped per lead (the lead with the newest find first; each lead's signals newest first).",
    'Filter with lead_ids (each must be a lead of this client) and kinds (hiring, funding, tech_change, news). Pages of `limit` leads (1..200, default 50); pass next_offset as offset for the next page.',
    'Reads only: nothing is looked up at the provider and nothing is charged. Signals of the simulated provider carry simulated: true.',
  ].join(' '),
  input: z
    .object({
      client_id: idArg('client'),
      lead_ids: leadIdsQueryArg.optional(),
      kinds: kindsArg.optional(),
      limit: intArg(1, 200).optional(),
      offset: intArg(0, 1_000_000).optional(),
    })
    .strict(),
  output: ReadSignalsSchema,
  run: async (call, input) => ({ body: await readSignals(call, input) }),
});
