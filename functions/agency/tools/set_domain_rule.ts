import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { confirmTokenArg, defineOperation, twoStepOutput } from '../../../lib/agency/define';
import { DomainRuleSchema, RuleFieldArgs } from '../../../lib/infra/domain_rule_schema';
import { setDomainRule } from '../../../lib/infra/domain_rule_set';

export const setDomainRuleOp = defineOperation({
  name: 'set_domain_rule',
  method: 'PUT',
  path: '/v1/agency/clients/{client_id}/domain-rule',
  scope: 'agency.write',
  toolset: 'infrastructure',
  studio: true,
  write: true,
  twoStep: true,
  idempotent: true,
  summary: "Change fields of the client's domain rule (two steps; each field given replaces only that field).",
  description:
    'Change fields of the client\'s domain rule (two steps); fields left out keep their value. Fields: stems, pattern (with {stem}; null = built-in), tlds (no dot), max_price_cents, mailboxes_per_domain, daily_cap, redirect_to (https or null), sender_names. The preview shows the rule after the change and changes {field: [before, after]}. Free.',
  input: z
    .object({
      client_id: idArg('client'),
      stems: RuleFieldArgs.stems.optional(),
      pattern: RuleFieldArgs.pattern.optional(),
      tlds: RuleFieldArgs.tlds.optional(),
      max_price_cents: RuleFieldArgs.max_price_cents.optional(),
      mailboxes_per_domain: RuleFieldArgs.mailboxes_per_domain.optional(),
      daily_cap: RuleFieldArgs.daily_cap.optional(),
      redirect_to: RuleFieldArgs.redirect_to.optional(),
      sender_names: RuleFieldArgs.sender_names.optional(),
      confirm_token: confirmTokenArg,
    })
    .strict(),
  output: twoStepOutput(
    z.object({ domain_rule: DomainRuleSchema, changes: z.record(z.string(), z.array(z.unknown()).length(2)).describe('each field that changes: [before, after]') }),
    z.object({ domain_rule: DomainRuleSchema }),
  ),
  run: async (call, input) => ({ body: await setDomainRule(call, input) }),
});
