import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { findClient } from '../../../lib/agency/clients/view';
import { defineOperation } from '../../../lib/agency/define';
import { DomainRuleSchema } from '../../../lib/infra/domain_rule_schema';
import { readDomainRule } from '../../../lib/infra/rule';

export const getDomainRuleOp = defineOperation({
  name: 'get_domain_rule',
  method: 'GET',
  path: '/v1/agency/clients/{client_id}/domain-rule',
  scope: 'agency.read',
  toolset: 'infrastructure',
  studio: true,
  write: false,
  summary: "The client's domain rule: stems, pattern, TLDs, maximum price, mailboxes per domain, daily cap, redirect, sender names and the chosen workspace.",
  description: [
    'A client that never set a rule has the defaults (updated_at null): no stems (domain_options then uses the client name), the built-in look-alike patterns, tlds ["com"], max_price_cents 1500, 3 mailboxes per domain, an active mailbox sends 30 a day, no redirect, built-in sender names.',
    'Change it with set_domain_rule (two steps); the workspace with set_domain_workspace.',
  ].join(' '),
  input: z.object({ client_id: idArg('client') }).strict(),
  output: z.object({ domain_rule: DomainRuleSchema }),
  run: async (call, input) => {
    const db = call.services.db;
    await findClient(db, call.auth.orgId, input.client_id);
    return { body: { domain_rule: await readDomainRule(db, call.auth.orgId, input.client_id) } };
  },
});
