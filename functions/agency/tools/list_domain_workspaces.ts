import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { listDomainWorkspaces } from '../../../lib/infra/workspaces';

export const listDomainWorkspacesOp = defineOperation({
  name: 'list_domain_workspaces',
  method: 'GET',
  path: '/v1/agency/clients/{client_id}/domain-workspaces',
  scope: 'agency.read',
  toolset: 'infrastructure',
  studio: true,
  write: false,
  openWorld: true,
  summary: "The domain workspaces at the mailbox provider the client's mailboxes can be created in, and the one chosen.",
  description: 'workspaces as the mailbox provider lists them (id, name, provider, seats_left; simulated: true from the simulation). chosen: the workspace id set with set_domain_workspace, or null. Reads only.',
  input: z.object({ client_id: idArg('client') }).strict(),
  output: z.object({
    workspaces: z.array(z.object({ id: z.string(), name: z.string(), provider: z.string(), seats_left: z.number().int().nullable(), simulated: z.literal(true).optional() })),
    chosen: z.string().nullable(),
  }),
  run: async (call, input) => ({ body: await listDomainWorkspaces(call, input) }),
});
