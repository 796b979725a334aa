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
  description:
    'The client\'s domain rule: stems, pattern, tlds, max_price_cents, mailboxes per domain, daily_cap, redirect, sender names and workspace. Never set: the defaults (updated_at null; client name as stem, built-in patterns, com, 1500 cents, 3 mailboxes, 30 a day). Change with set_domain_rule.',
  input: z.object({ client_id: idArg('client') }).strict(),
  output: z.object({ domain_rule: DomainRuleSchema }),
  run: async (call, input) => {
    const db = call.services.db;
    await findClient(db, call.auth.orgId, input.client_id);
    return { body: { domain_rule: await readDomainRule(db, call.auth.orgId, input.client_id) } };
  },
});
