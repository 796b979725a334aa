import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { pageShape } from '../../../lib/pool/filters';
import { listSuppressions, SuppressionSchema } from '../../../lib/pool/suppressions';

export const listSuppressionsOp = defineOperation({
  name: 'list_suppressions',
  method: 'GET',
  path: '/v1/agency/clients/{client_id}/suppressions',
  scope: 'agency.read',
  toolset: 'leads',
  write: false,
  studio: true,
  summary: "The client's never-mail list, newest first; q keeps entries whose address or domain contains it.",
  description:
    'The client\'s never-mail list, newest first, paged (offset = next_offset). An email entry blocks that address; a domain entry its addresses, subdomains and leads whose company is on it. The organization\'s opt-out list applies too but is not listed here. q filters by text. Add with import_suppressions.',
  input: z
    .object({
      client_id: idArg('client'),
      q: z.string().trim().min(1).max(320).optional(),
      ...pageShape,
    })
    .strict(),
  output: z.object({ suppressions: z.array(SuppressionSchema), next_offset: z.number().int().nullable() }),
  run: async (call, input) => ({ body: await listSuppressions(call, input) }),
});
