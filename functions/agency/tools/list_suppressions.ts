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
  description: [
    "The client's never-mail list (newest first, paged: offset = next_offset, null on the last page): an email entry blocks that address; a domain entry blocks every address on it and its subdomains and every lead whose company domain or website is on it.",
    "The organization's own do-not-contact list (prospects who opted out in a reply) applies to every client as well; it is not listed here.",
    'q keeps entries whose value contains it (any case). Add entries with import_suppressions.',
  ].join(' '),
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
