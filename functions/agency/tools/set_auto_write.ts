import { z } from 'zod';
import { boolArg, idArg } from '../../../lib/agency/args';
import { updateClient } from '../../../lib/agency/clients/update_client';
import { ClientSchema } from '../../../lib/agency/clients/view';
import { defineOperation } from '../../../lib/agency/define';

// The spec's route for update_client with auto_write (agency-tools-and-bridge.md §4): the tool uses PATCH
// /clients/{client_id} for all its fields; this route serves REST callers who switch auto_write alone.
export const setAutoWriteOp = defineOperation({
  name: 'set_auto_write',
  restOnly: true,
  method: 'PUT',
  path: '/v1/agency/clients/{client_id}/auto-write',
  scope: 'agency.write',
  toolset: 'account',
  write: true,
  idempotent: true,
  summary: "Switch a client's auto_write on or off (the same change as update_client with auto_write).",
  input: z.object({ client_id: idArg('client'), auto_write: boolArg() }).strict(),
  output: z.object({ client: ClientSchema, updated: z.boolean() }),
  run: async (call, input) => ({ body: await updateClient(call, input) }),
});
