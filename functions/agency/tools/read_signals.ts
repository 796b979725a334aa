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
  description:
    'Signals found by run_signals for the client\'s leads, grouped per lead (newest find first). Filter with lead_ids and kinds (hiring, funding, tech_change, news); pages of limit leads, next_offset for the next. Reads only, charges nothing; simulated provider results carry simulated: true.',
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
