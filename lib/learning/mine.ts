// Mining review edits into learned rules (issue 18). review_edit_mail calls mineEdit inside its transaction, so an
// edit and the rules it is evidence for commit together.
import { and, eq, sql } from 'drizzle-orm';
import { learnedRules, poolLeads, type LearnedRuleEvidence, type WrittenMail } from '../../schema';
import type { Db } from '../db/types';
import { factTest, mineMail } from './diff';
import { ruleKey, ruleText } from './rules';

export type MinedEdit = { orgId: string; clientId: string; editId: string; batchId: string; poolLeadId: string; before: WrittenMail; after: WrittenMail };

/** The prospect's own values: what a rule must never carry to other prospects. */
async function leadFacts(tx: Db, e: MinedEdit): Promise<(string | null)[]> {
  const [lead] = await tx.select().from(poolLeads).where(and(eq(poolLeads.id, e.poolLeadId), eq(poolLeads.orgId, e.orgId), eq(poolLeads.clientId, e.clientId)));
  if (!lead) return [];
  const custom = Object.values(lead.custom ?? {}).map((v) => (v === null ? null : String(v)));
  return [lead.firstName, lead.lastName, lead.fullName, lead.company, lead.domain, lead.website, lead.title, lead.email, lead.city, lead.state, lead.country, lead.hook, lead.note, lead.currentSender, ...custom];
}

/**
 * Adds or extends the learned rules one review edit is evidence for (suggested until activate_learned_rule).
 * learned_rules_client_key_uq makes the same advice one rule: mining it again adds evidence (once per edit).
 * Returns the keys it touched.
 */
export async function mineEdit(tx: Db, edit: MinedEdit): Promise<string[]> {
  const isFact = factTest(await leadFacts(tx, edit));
  const candidates = mineMail(edit.after.step ?? edit.before.step, edit.before, edit.after, isFact);
  for (const c of candidates) {
    const evidence: LearnedRuleEvidence[] = [{ edit_id: edit.editId, batch_id: edit.batchId, lead_id: edit.poolLeadId, before: c.before, after: c.after }];
    await tx
      .insert(learnedRules)
      .values({ orgId: edit.orgId, clientId: edit.clientId, key: ruleKey(c.spec), kind: c.spec.kind, rule: ruleText(c.spec), evidence })
      .onConflictDoUpdate({
        target: [learnedRules.clientId, learnedRules.key],
        set: {
          evidence: sql`CASE WHEN ${learnedRules.evidence} @> jsonb_build_array(jsonb_build_object('edit_id', ${edit.editId}::text))
                             THEN ${learnedRules.evidence} ELSE ${learnedRules.evidence} || excluded.evidence END`,
          updatedAt: sql`now()`,
        },
      });
  }
  return candidates.map((c) => ruleKey(c.spec));
}
