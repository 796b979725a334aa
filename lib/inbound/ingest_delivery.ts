import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { inboundMessages, inboundSources, replies } from '../../schema';
import type { Db } from '../db/types';
import { ApiError } from '../errors';
import { prepareReply, storeReply, type Classify } from '../ingest/ingest_reply';
import { resolveCampaign } from './campaign';
import type { InboundSource } from './sources';
import type { NormalizedInbound } from './types';

export type DeliveryResult = {
  duplicate: boolean;
  reply_id: string | null;
  lead_id: string | null;
  classification: string | null;
  campaign: { id: string; name: string; created: boolean } | null;
  opted_out: boolean;
};

/**
 * One reply delivered by a sending tool: read, classify, then in one transaction claim the message id (a
 * redelivery finds its claim and changes nothing), match or create the campaign, and store it through the one
 * ingestion path (lead, thread, opt-out, `lead.replied`). Concurrent duplicates wait on the claim's primary key
 * until the first commits, then see it: one message, one reply, one lead count.
 */
export async function ingestDelivery({ db, classify, source, reply, now }: { db: Db; classify: Classify; source: InboundSource; reply: NormalizedInbound; now: Date }): Promise<DeliveryResult> {
  if (source.status === 'paused') {
    throw new ApiError('source_paused', 'this inbound source is paused by its owner; the delivery was not accepted (retry later, or resume the source)');
  }
  // A redelivery of a stored message (the common retry) is answered without reading or classifying it again.
  const [seen] = await db
    .select({ replyId: inboundMessages.replyId })
    .from(inboundMessages)
    .where(and(eq(inboundMessages.sourceId, source.id), eq(inboundMessages.messageId, reply.message_id)));
  if (seen) return duplicateOf(db, source, reply.message_id);
  const prepared = await prepareReply(reply, classify);
  const result = await db.transaction(async (tx): Promise<DeliveryResult> => {
    const claimed = await tx
      .insert(inboundMessages)
      .values({ sourceId: source.id, messageId: reply.message_id, orgId: source.orgId, receivedAt: now })
      .onConflictDoNothing()
      .returning({ messageId: inboundMessages.messageId });
    if (claimed.length === 0) return duplicateOf(tx, source, reply.message_id);

    const campaign = await resolveCampaign(tx, { orgId: source.orgId, provider: source.provider, campaign: reply.campaign, now });
    const stored = await storeReply(tx, { orgId: source.orgId, campaign, prepared, sourceId: source.id, now });
    await tx
      .update(inboundMessages)
      .set({ replyId: stored.reply.id })
      .where(and(eq(inboundMessages.sourceId, source.id), eq(inboundMessages.messageId, reply.message_id)));
    return {
      duplicate: false,
      reply_id: stored.reply.id,
      lead_id: stored.leadId,
      classification: stored.reply.classification,
      campaign,
      opted_out: stored.optedOut,
    };
  });
  // The reply is stored; a failure to note the time must not turn the answer into a 500 (the tool would retry).
  // The source row read by the authentication says whether the minute-old stamp needs a write at all.
  if (!source.lastReceivedAt || now.getTime() - source.lastReceivedAt.getTime() > 60_000) await noteReceived(db, source.id, now).catch(() => undefined);
  return result;
}

/**
 * `last_received_at` for the owner ("is the webhook working?"), written after the commit and at most once a
 * minute: inside the transaction every delivery of a source would queue behind the one row lock.
 */
async function noteReceived(db: Db, sourceId: string, now: Date) {
  await db
    .update(inboundSources)
    .set({ lastReceivedAt: now })
    .where(and(eq(inboundSources.id, sourceId), or(isNull(inboundSources.lastReceivedAt), lt(inboundSources.lastReceivedAt, new Date(now.getTime() - 60_000)))));
}

async function duplicateOf(tx: Db, source: InboundSource, messageId: string): Promise<DeliveryResult> {
  const [row] = await tx
    .select({ replyId: inboundMessages.replyId })
    .from(inboundMessages)
    .where(and(eq(inboundMessages.sourceId, source.id), eq(inboundMessages.messageId, messageId)));
  const [reply] = row?.replyId
    ? await tx.select({ leadId: replies.leadId, classification: replies.classification }).from(replies).where(eq(replies.id, row.replyId))
    : [];
  return { duplicate: true, reply_id: row?.replyId ?? null, lead_id: reply?.leadId ?? null, classification: reply?.classification ?? null, campaign: null, opted_out: false };
}
