import { and, eq } from 'drizzle-orm';
import { learnedRules } from '../../schema';
import { writeAudit } from '../agency/audit';
import { findClient } from '../agency/clients/view';
import type { AgencyCall } from '../agency/operation';
import { notFound } from '../errors';
import { learnedRuleView, type LearnedRuleView } from './view';

/**
 * Makes a suggested rule active for the client's next writing round. Idempotent: an active rule is answered as it
 * is (who activated it first stays on record) and writes no second audit row.
 */
export async function activateLearnedRule(call: AgencyCall, input: { client_id: string; rule_id: string }): Promise<{ rule: LearnedRuleView; changed: boolean }> {
  const { orgId } = call.auth;
  return call.services.db.transaction(async (tx) => {
    const client = await findClient(tx, orgId, input.client_id);
    const [row] = await tx
      .select()
      .from(learnedRules)
      .where(and(eq(learnedRules.id, input.rule_id), eq(learnedRules.orgId, orgId), eq(learnedRules.clientId, client.id)))
      .for('update');
    if (!row) throw notFound('learned rule');
    if (row.status === 'active') return { rule: learnedRuleView(row), changed: false };
    const [active] = await tx
      .update(learnedRules)
      .set({ status: 'active', activatedBy: call.actor, activatedAt: call.now, updatedAt: call.now })
      .where(eq(learnedRules.id, row.id))
      .returning();
    await writeAudit(tx, { orgId, actor: call.actor, action: 'learned_rule.activated', target: `learned_rule:${row.id}`, detail: { client_id: client.id, kind: row.kind, rule: row.rule }, at: call.now });
    return { rule: learnedRuleView(active), changed: true };
  });
}
