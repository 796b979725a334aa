import { and, eq, sql } from 'drizzle-orm';
import { campaigns, leads, replies, threadMessages } from '../../schema';
import { stripQuoted } from '../classify/strip_quoted';
import type { Classification } from '../classify/types';
import type { Db } from '../db/types';
import { notFound } from '../errors';
import { emitEvent, truncate } from '../events/outbox';
import { stampLeadChange } from '../crm/change_clock';

export type InboundReply = {
  campaign_id: string;
  from_email: string;
  from_name?: string | null;
  subject?: string | null;
  body: string;
  received_at?: string;
};

export type Classify = (text: string, subject?: string | null) => Promise<{ classification: Classification; confidence: number }>;

/**
 * Stores a prospect's reply: classifies its own text (quoted thread stripped), aggregates the lead (one per
 * email + campaign, stable id), appends to the thread and writes `lead.replied`, all in one transaction.
 * Called by the admin route now and by provider webhooks later.
 */
export async function ingestReply({ db, orgId, input, classify, now }: { db: Db; orgId: string; input: InboundReply; classify: Classify; now: Date }) {
  const email = input.from_email.trim().toLowerCase();
  const stripped = stripQuoted(input.body);
  const receivedAt = input.received_at ? new Date(input.received_at) : now;
  // Classify outside the transaction: a hosted model may take seconds and must not hold row locks.
  const { classification, confidence } = await classify(stripped, input.subject);
  const name = input.from_name?.trim() || null;

  return db.transaction(async (tx) => {
    const [campaign] = await tx
      .select({ id: campaigns.id, name: campaigns.name })
      .from(campaigns)
      .where(and(eq(campaigns.id, input.campaign_id), eq(campaigns.orgId, orgId)));
    if (!campaign) throw notFound('campaign');

    // An out-of-office auto-reply does not overwrite what a real reply already told us about the lead.
    const [lead] = await tx
      .insert(leads)
      .values({ orgId, campaignId: campaign.id, email, name, classification, replyCount: 1, lastReplyAt: receivedAt })
      .onConflictDoUpdate({
        target: [leads.campaignId, leads.email],
        set: {
          replyCount: sql`${leads.replyCount} + 1`,
          lastReplyAt: sql`greatest(${leads.lastReplyAt}, excluded.last_reply_at)`,
          name: sql`coalesce(${leads.name}, excluded.name)`,
          classification: sql`case when excluded.classification = 'ooo' and ${leads.classification} is not null then ${leads.classification} else excluded.classification end`,
        },
      })
      .returning({ id: leads.id, inserted: sql<boolean>`(xmax = 0)` });

    if (lead.inserted) {
      await tx.update(campaigns).set({ replied: sql`${campaigns.replied} + 1` }).where(eq(campaigns.id, campaign.id));
    }
    const [reply] = await tx
      .insert(replies)
      .values({
        orgId,
        leadId: lead.id,
        campaignId: campaign.id,
        fromEmail: email,
        fromName: name,
        subject: input.subject ?? null,
        body: input.body,
        bodyStripped: stripped,
        classification,
        classificationConfidence: confidence,
        receivedAt,
      })
      .returning();
    await tx.insert(threadMessages).values({ orgId, leadId: lead.id, replyId: reply.id, role: 'reply', content: stripped, at: receivedAt });
    await emitEvent(tx, {
      orgId,
      kind: 'lead.replied',
      at: now,
      data: {
        reply_id: reply.id,
        lead_id: lead.id,
        campaign_id: campaign.id,
        campaign_name: campaign.name,
        from_email: email,
        from_name: name,
        classification,
        reply_text: truncate(stripped),
      },
    });
    // Last: `updated_at` from the change clock (the CRM feed's guarantee); the upsert above holds the row lock.
    await stampLeadChange(tx, orgId, [lead.id]);
    return {
      leadId: lead.id,
      reply: {
        id: reply.id,
        from_email: email,
        from_name: name,
        campaign_name: campaign.name,
        body: reply.body,
        classification,
        received_at: receivedAt.toISOString(),
      },
    };
  });
}
