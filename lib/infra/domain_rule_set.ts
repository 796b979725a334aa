// set_domain_rule's two steps: the preview shows the rule after the change and each changed field's before and
// after; the confirm upserts the client's domain_rules row and writes one audit row (domain_rule.updated).
import { domainRules } from '../../schema';
import { findClient } from '../agency/clients/view';
import { canonicalJson } from '../agency/canonical';
import { runTwoStep, type PreviewAnswer, type TwoStepDef } from '../agency/confirm';
import type { AgencyCall } from '../agency/operation';
import { ApiError } from '../errors';
import { RULE_FIELDS, type RuleField } from './domain_rule_schema';
import { readDomainRule, type DomainRule } from './rule';

export type RuleChanges = {
  stems?: string[];
  pattern?: string | null;
  tlds?: string[];
  max_price_cents?: number;
  mailboxes_per_domain?: number;
  daily_cap?: number;
  redirect_to?: string | null;
  sender_names?: string[];
};
export type SetDomainRuleInput = RuleChanges & { client_id: string; confirm_token?: string };
export type DomainRulePreview = { domain_rule: DomainRule; changes: Partial<Record<RuleField, [unknown, unknown]>> };

const givenFields = (input: RuleChanges) => RULE_FIELDS.filter((f) => input[f] !== undefined);

const setDomainRuleDef: TwoStepDef<SetDomainRuleInput, DomainRulePreview, { domain_rule: DomainRule }> = {
  tool: 'set_domain_rule',
  async preview(call, input, db) {
    // Locked in the confirm's transaction: two confirms of different previews cannot both merge into the same row.
    await findClient(db, call.auth.orgId, input.client_id, db !== call.services.db);
    const before = await readDomainRule(db, call.auth.orgId, input.client_id);
    const after: DomainRule = { ...before };
    const changes: DomainRulePreview['changes'] = {};
    for (const f of givenFields(input)) {
      (after as Record<string, unknown>)[f] = input[f];
      if (canonicalJson(before[f]) !== canonicalJson(input[f])) changes[f] = [before[f], input[f]];
    }
    const { updated_at: _u, updated_by: _b, ...state } = before;
    return { preview: { domain_rule: after, changes }, state, credits: 0 };
  },
  async apply(call, input, tx, p) {
    const r = p.preview.domain_rule;
    const values = {
      stems: r.stems,
      pattern: r.pattern,
      tlds: r.tlds,
      maxPriceCents: r.max_price_cents,
      mailboxesPerDomain: r.mailboxes_per_domain,
      dailyCap: r.daily_cap,
      redirectTo: r.redirect_to,
      senderNames: r.sender_names,
      updatedBy: call.actor,
      updatedAt: call.now,
    };
    await tx
      .insert(domainRules)
      .values({ clientId: input.client_id, orgId: call.auth.orgId, ...values })
      .onConflictDoUpdate({ target: domainRules.clientId, set: values });
    const domain_rule = await readDomainRule(tx, call.auth.orgId, input.client_id);
    return { result: { domain_rule }, audit: { action: 'domain_rule.updated', target: `client:${input.client_id}`, detail: { changes: p.preview.changes } } };
  },
};

/** Both calls of set_domain_rule; at least one field must be given. */
export async function setDomainRule(call: AgencyCall, input: SetDomainRuleInput): Promise<PreviewAnswer<DomainRulePreview> | { domain_rule: DomainRule }> {
  if (givenFields(input).length === 0) throw new ApiError('validation_error', `give at least one field to change: ${RULE_FIELDS.join(', ')}`);
  const out = await runTwoStep(call, setDomainRuleDef, input);
  return out.confirmed ? out.result : out.answer;
}
