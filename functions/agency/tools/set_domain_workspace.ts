import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { DomainRuleSchema } from '../../../lib/infra/domain_rule_schema';
import { setDomainWorkspace } from '../../../lib/infra/workspaces';

export const setDomainWorkspaceOp = defineOperation({
  name: 'set_domain_workspace',
  method: 'PUT',
  path: '/v1/agency/clients/{client_id}/domain-workspace',
  scope: 'agency.write',
  toolset: 'infrastructure',
  studio: true,
  write: true,
  idempotent: true,
  summary: "Choose the domain workspace the client's mailboxes are created in (an id from list_domain_workspaces).",
  description: 'workspace_id must be listed by list_domain_workspaces, else not_found naming it. Stored on the domain rule (workspace) and audited as domain_workspace.set; choosing the workspace already chosen changes nothing (updated: false). Mailbox steps already in a plan use the workspace chosen when they run.',
  input: z.object({ client_id: idArg('client'), workspace_id: z.string().trim().min(1).max(200) }).strict(),
  output: z.object({ domain_rule: DomainRuleSchema, updated: z.boolean() }),
  run: async (call, input) => ({ body: await setDomainWorkspace(call, input) }),
});
