// review_batch and review_lead: the reads a reviewer works from. Both read the client's open batch only; a
// finished batch is history (batch_status shows its counts).
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { batchLeads, poolLeads, reviewEdits } from '../../schema';
import { findClient } from '../agency/clients/view';
import type { AgencyCall } from '../agency/operation';
import { notFound } from '../errors';
import { poolLeadView } from '../pool/view';
import { leadInOpenBatch, reviewView } from './lead';
import { excerptOf, missingSources } from './mails';
import { batchView, openBatch, type BatchView } from './view';

export const ReviewItemSchema = z.object({
  lead_id: z.string(),
  position: z.number().int(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  company: z.string().nullable(),
  review: z.enum(['pending', 'approved', 'rejected']),
  reject_reason: z.string().nullable(),
  written: z.boolean(),
  source_missing: z.number().int(),
  excerpt: z.string().nullable().describe("the first mail's opening"),
});
export type ReviewItem = z.infer<typeof ReviewItemSchema>;

export type ReviewBatchInput = { client_id: string; review?: 'pending' | 'approved' | 'rejected'; offset: number; limit: number };

/** review_batch: a page of the open batch's leads in batch order, optionally of one review status. */
export async function reviewBatch(call: AgencyCall, input: ReviewBatchInput): Promise<{ batch: BatchView | null; leads: ReviewItem[]; next_offset: number | null }> {
  const { db } = call.services;
  const orgId = call.auth.orgId;
  await findClient(db, orgId, input.client_id);
  const batch = await openBatch(db, orgId, input.client_id);
  if (!batch) return { batch: null, leads: [], next_offset: null };
  const rows = await db
    .select({ bl: batchLeads, email: poolLeads.email, name: sql<string | null>`coalesce(${poolLeads.fullName}, nullif(trim(concat_ws(' ', ${poolLeads.firstName}, ${poolLeads.lastName})), ''))`, company: poolLeads.company })
    .from(batchLeads)
    .innerJoin(poolLeads, and(eq(poolLeads.id, batchLeads.poolLeadId), eq(poolLeads.orgId, orgId)))
    .where(and(eq(batchLeads.batchId, batch.id), input.review ? eq(batchLeads.review, input.review) : undefined))
    .orderBy(asc(batchLeads.position))
    .limit(input.limit + 1)
    .offset(input.offset);
  const leads = rows.slice(0, input.limit).map(({ bl, email, name, company }) => ({
    lead_id: bl.poolLeadId,
    position: bl.position,
    email,
    name,
    company,
    review: bl.review,
    reject_reason: bl.rejectReason,
    written: bl.mails !== null,
    source_missing: missingSources(bl.mails).length,
    excerpt: excerptOf(bl.mails),
  }));
  return { batch: await batchView(db, batch), leads, next_offset: rows.length > input.limit ? input.offset + input.limit : null };
}

/** review_lead: the pool lead, its review with every mail and each sentence's source, and the edits made to it. */
export async function reviewLead(call: AgencyCall, input: { client_id: string; lead_id: string }) {
  const { db } = call.services;
  const { lead } = await leadInOpenBatch(call, db, input.client_id, input.lead_id);
  const [pool] = await db.select().from(poolLeads).where(and(eq(poolLeads.id, lead.poolLeadId), eq(poolLeads.orgId, call.auth.orgId)));
  if (!pool) throw notFound("lead in the client's open batch");
  const edits = await db
    .select()
    .from(reviewEdits)
    .where(and(eq(reviewEdits.batchId, lead.batchId), eq(reviewEdits.poolLeadId, lead.poolLeadId), eq(reviewEdits.orgId, call.auth.orgId)))
    .orderBy(desc(reviewEdits.at), desc(reviewEdits.id));
  return {
    lead: poolLeadView(pool),
    review: {
      ...reviewView(lead),
      mails: lead.mails,
      missing: missingSources(lead.mails),
      rules_used: lead.rulesUsed,
      written_at: lead.writtenAt?.toISOString() ?? null,
      writes: lead.writes,
    },
    edits: edits.map((e) => ({ id: e.id, step: e.step, before: e.before, after: e.after, by: e.by, at: e.at.toISOString() })),
  };
}
