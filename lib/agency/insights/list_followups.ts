import { and, eq, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { campaigns, followups, leads } from '../../../schema';
import { FOLLOWUP_STATUSES, FollowupViewSchema, followupView } from '../../followups/plan';
import { findClient } from '../clients/view';
import type { AgencyCall } from '../operation';

export { FOLLOWUP_STATUSES };

export const AgencyFollowupSchema = FollowupViewSchema.extend({
  lead_email: z.string(),
  campaign_id: z.string(),
  client_id: z.string().nullable(),
});

export type ListFollowupsInput = { client_id?: string; status?: (typeof FOLLOWUP_STATUSES)[number]; limit?: number; offset?: number };

/**
 * list_followups: the organization's planned follow-ups and check-ins, as an agenda. Open ones (planned, in
 * review) come first, soonest due first: what goes out next, and what is overdue, leads. Finished ones (sent,
 * cancelled) follow, most recently due first, so history never pushes the agenda off the page.
 */
export async function listAgencyFollowups(call: AgencyCall, input: ListFollowupsInput) {
  const { db } = call.services;
  const { orgId } = call.auth;
  if (input.client_id) await findClient(db, orgId, input.client_id);
  const limit = input.limit ?? 50;
  const offset = input.offset ?? 0;
  const where: SQL[] = [eq(followups.orgId, orgId)];
  if (input.client_id) where.push(eq(campaigns.clientId, input.client_id));
  if (input.status) where.push(eq(followups.status, input.status));
  const open = sql`${followups.status} in ('planned', 'review')`;
  const found = await db
    .select({ f: followups, email: leads.email, campaignId: campaigns.id, clientId: campaigns.clientId })
    .from(followups)
    .innerJoin(leads, eq(leads.id, followups.leadId))
    .innerJoin(campaigns, eq(campaigns.id, leads.campaignId))
    .where(and(...where))
    .orderBy(sql`(${open}) desc`, sql`case when ${open} then ${followups.dueAt} end asc`, sql`${followups.dueAt} desc`, followups.id)
    .limit(limit + 1)
    .offset(offset);
  const page = found.slice(0, limit);
  return {
    followups: page.map((r) => ({ ...followupView(r.f), lead_email: r.email, campaign_id: r.campaignId, client_id: r.clientId })),
    next_offset: found.length > limit ? offset + limit : null,
  };
}
