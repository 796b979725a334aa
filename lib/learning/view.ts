import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { learnedRules } from '../../schema';
import { findClient } from '../agency/clients/view';
import type { AgencyCall } from '../agency/operation';

export const LearnedRuleSchema = z.object({
  id: z.string(),
  kind: z.string().describe('avoid_phrase, replace_phrase, sign_off, add_sentence or max_sentences'),
  rule: z.string(),
  status: z.enum(['suggested', 'active']),
  evidence: z.array(z.object({ edit_id: z.string(), batch_id: z.string(), lead_id: z.string(), before: z.string(), after: z.string() })),
  activated_by: z.string().nullable(),
  activated_at: z.string().nullable(),
  created_at: z.string(),
});
export type LearnedRuleView = z.infer<typeof LearnedRuleSchema>;
export type LearnedRuleRow = typeof learnedRules.$inferSelect;

export const learnedRuleView = (r: LearnedRuleRow): LearnedRuleView => ({
  id: r.id,
  kind: r.kind,
  rule: r.rule,
  status: r.status,
  evidence: r.evidence,
  activated_by: r.activatedBy,
  activated_at: r.activatedAt?.toISOString() ?? null,
  created_at: r.createdAt.toISOString(),
});

/** The client's learned rules, oldest first (the order the writer applies active ones in). */
export async function listLearnedRules(call: AgencyCall, input: { client_id: string; status?: 'suggested' | 'active' }) {
  const { orgId } = call.auth;
  const db = call.services.db;
  const client = await findClient(db, orgId, input.client_id);
  const rows = await db
    .select()
    .from(learnedRules)
    .where(and(eq(learnedRules.orgId, orgId), eq(learnedRules.clientId, client.id), input.status ? eq(learnedRules.status, input.status) : undefined))
    .orderBy(asc(learnedRules.createdAt), asc(learnedRules.key));
  return { rules: rows.map(learnedRuleView) };
}
