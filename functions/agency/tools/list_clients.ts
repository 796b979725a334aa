import { z } from 'zod';
import { listClients } from '../../../lib/agency/clients/list_clients';
import { ClientSchema } from '../../../lib/agency/clients/view';
import { defineOperation } from '../../../lib/agency/define';

export const listClientsOp = defineOperation({
  name: 'list_clients',
  method: 'GET',
  path: '/v1/agency/clients',
  scope: 'agency.read',
  toolset: 'account',
  write: false,
  summary: "The agency's clients, oldest first, each with its playbook, auto_write and auto_protect.",
  input: z.object({}).strict(),
  output: z.object({ clients: z.array(ClientSchema) }),
  run: async (call) => ({ body: { clients: await listClients(call.services.db, call.auth.orgId) } }),
});
