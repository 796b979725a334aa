import { z } from 'zod';
import { idArg, intArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { ImportSchema, LIST_IMPORTS_MAX, listImports } from '../../../lib/pool/imports_view';

export const listImportsOp = defineOperation({
  name: 'list_imports',
  method: 'GET',
  path: '/v1/agency/clients/{client_id}/imports',
  scope: 'agency.read',
  toolset: 'leads',
  studio: true,
  write: false,
  summary: "A client's import history, newest first, with each import's counts.",
  description:
    'The client\'s imports, newest first: import_leads imports (source tool) and the bridge\'s (source bridge:<tool>, one per tool and day), each with added, duplicates, already_mailed, waiting_for_email and invalid. Paged with limit/offset; next_offset null on the last page.',
  input: z
    .object({
      client_id: idArg('client'),
      limit: intArg(1, LIST_IMPORTS_MAX).optional(),
      offset: intArg(0, 1_000_000).optional(),
    })
    .strict(),
  output: z.object({ imports: z.array(ImportSchema), next_offset: z.number().int().nullable() }),
  run: async (call, input) => ({ body: await listImports(call.services.db, { orgId: call.auth.orgId, clientId: input.client_id, limit: input.limit, offset: input.offset }) }),
});
