import { and, eq, sql } from 'drizzle-orm';
import { campaigns, leads, replies, threadMessages } from '../../schema';
import type { Classification } from '../classify/types';
import type { Db } from '../db/types';
import { notFound } from '../errors';
import { emitEvent, truncate } from '../events/outbox';
import { stampLeadChange } from '../crm/change_clock';
import { replyText } from '../mail_text/reply_text';
import { recordOptOutIfRequested } from '../suppression/opt_outs';

/** The admin route's input (operator.md §3): a plain-text body; replies from sending tools come through lib/inbound. */
export type InboundReply = {
  campaign_id: string;
  from_email: string;
  from_name?: string | null;
  subject?: string | null;
  body: string;
  received_at?: string;
};

export type Classify = (text: string, subject?: string | null) => Promise<{ classification: Classification; confidence: number }>;

/** A prospect's message as it is stored: its text, its HTML, and what answering it in-thread needs. */
export type ReplyMessage = {
  from_email: string;
  from_name?: string | null;
  subject?: string | null;
  text?: string | null;
  html?: string | null;
  received_at?: string | null;
  to_email?: string | null;
  rfc_message_id?: string | null;
  in_reply_to?: string | null;
  references?: string | null;
  provider_ref?: Record<string, string | number | null> | null;
};

/** A message read and classified, ready to store: done before the transaction, which must not wait on a model. */
export type PreparedReply = {
  message: ReplyMessage;
  email: string;
  name: string | null;
  text: string;
  stripped: string;
  classification: Classification;
  confidence: number;
};

/**
 * Reads the message (HTML to text, quoted history stripped in both forms) and classifies what the prospect wrote.
 * Outside any transaction: a hosted model may take seconds and must not hold row locks.
 */
export async function prepareReply(message: ReplyMessage, classify: Classify): Promise<PreparedReply> {
  const { text, stripped } = replyText({ text: message.text, html: message.html });
  const { classification, confidence } = await classify(stripped, message.subject);
  return { message, email: message.from_email.trim().toLowerCase(), name: message.from_name?.trim() || null, text, stripped, classification, confidence };
}

/**
 * Stores a prospect's reply (admin route): classification, lead aggregation, thread and `lead.replied` in one
 * transaction. Provider webhooks use lib/inbound/ingest_delivery.ts, which adds de-duplication and campaign matching.
 */
export async function ingestReply({ db, orgId, input, classify, now }: { db: Db; orgId: string; input: InboundReply; classify: Classify; now: Date }) {
  const prepared = await prepareReply({ ...input, text: input.body }, classify);
  return db.transaction(async (tx) => {
    const [campaign] = await tx
      .select({ id: campaigns.id, name: campaigns.name })
      .from(campaigns)
      .where(and(eq(campaigns.id, input.campaign_id), eq(campaigns.orgId, orgId)));
    if (!campaign) throw notFound('campaign');
    return storeReply(tx, { orgId, campaign, prepared, sourceId: null, now });
  });
}

/**
 * Inside the caller's transaction: aggregates the lead (one per email + campaign, stable id), stores the reply
 * (the original text and HTML kept for GET /v1/replies/{id}, the stripped text for the thread), appends to the
 * thread, puts an explicit opt-out on the do-not-contact list, and writes `lead.replied`.
 */
export async function storeReply(
  tx: Db,
  a: { orgId: string; campaign: { id: string; name: string }; prepared: PreparedReply; sourceId: string | null; now: Date },
) {
  const { orgId, campaign, now } = a;
  const { message, email, name, classification, confidence, stripped } = a.prepared;
  const receivedAt = message.received_at ? new Date(message.received_at) : now;

  // The lead keeps its intent (README "Classification"): the new reply's label merges into the lead's current one
  // (the last reply's merge, or a manual PATCH, which stands until this reply). An ooo auto-reply never overwrites;
  // an explicit no (not_interested) and a new hot/warm always win; a cold (neutral, unclear, wrong person) reply
  // keeps an earlier hot, warm or not_interested and replaces only cold, ooo or nothing.
  const [lead] = await tx
    .insert(leads)
    .values({ orgId, campaignId: campaign.id, email, name, classification, replyCount: 1, lastReplyAt: receivedAt, lastActivityAt: receivedAt })
    .onConflictDoUpdate({
      target: [leads.campaignId, leads.email],
      set: {
        replyCount: sql`${leads.replyCount} + 1`,
        lastReplyAt: sql`greatest(${leads.lastReplyAt}, excluded.last_reply_at)`,
        // greatest() ignores a null: a lead without activity yet takes the reply's time.
        lastActivityAt: sql`greatest(${leads.lastActivityAt}, excluded.last_activity_at)`,
        name: sql`coalesce(${leads.name}, excluded.name)`,
        classification: sql`case
          when ${leads.classification} is null then excluded.classification
          when excluded.classification = 'ooo' then ${leads.classification}
          when excluded.classification = 'cold' and ${leads.classification} in ('hot', 'warm', 'not_interested') then ${leads.classification}
          else excluded.classification end`,
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
      subject: message.subject ?? null,
      body: a.prepared.text,
      bodyHtml: message.html || null,
      bodyStripped: stripped,
      classification,
      classificationConfidence: confidence,
      receivedAt,
      sourceId: a.sourceId,
      toEmail: message.to_email?.trim().toLowerCase() || null,
      rfcMessageId: message.rfc_message_id ?? null,
      inReplyTo: message.in_reply_to ?? null,
      references: message.references ?? null,
      providerRef: message.provider_ref ?? null,
    })
    .returning();
  await tx.insert(threadMessages).values({ orgId, leadId: lead.id, replyId: reply.id, role: 'reply', content: stripped, at: receivedAt });
  const optOut = await recordOptOutIfRequested(tx, { orgId, email, replyId: reply.id, leadId: lead.id, text: stripped, now });
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
    optedOut: optOut !== null,
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
}
