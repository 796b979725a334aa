import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { getClient } from '../../../lib/agency/clients/list_clients';
import { ClientSchema } from '../../../lib/agency/clients/view';
import { defineOperation } from '../../../lib/agency/define';

export const getClientOp = defineOperation({
  name: 'get_client',
  method: 'GET',
  path: '/v1/agency/clients/{client_id}',
  scope: 'agency.read',
  toolset: 'account',
  write: false,
  summary: 'One client with its playbook (version included), auto_write, auto_protect and updated_at (pass it as if_updated_at to update_client).',
  input: z.object({ client_id: idArg('client') }).strict(),
  output: z.object({ client: ClientSchema }),
  run: async (call, input) => ({ body: { client: await getClient(call.services.db, call.auth.orgId, input.client_id) } }),
});
