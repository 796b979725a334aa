// The simulated sequencer's replies enter the core ingestion exactly as a prospect's reply from a sending tool does
// (prepareReply + storeReply: classification, lead aggregation, thread, opt-out, `lead.replied`). The simulation has
// no inbound source (inbound_messages is keyed by one), so idempotency by message id is kept here instead: under a
// transaction-scoped advisory lock on (org, message id), a reply already stored with that Message-ID is skipped,
// and concurrent ingestions of the same reply wait for the first to commit and then find it.
import { and, eq, sql } from 'drizzle-orm';
import { campaigns, replies } from '../../../schema';
import { prepareReply, storeReply } from '../../ingest/ingest_reply';
import type { Services } from '../../services';
import type { SimReply } from './sim_day';

export type SimIngestResult = {
  ingested: number;
  duplicates: number;
  /** Replies whose campaign the callback did not map to a core campaign of this organization: not ingested. */
  unmapped: number;
  reply_ids: string[];
};

export async function ingestSimReplies(
  services: Pick<Services, 'db' | 'classify' | 'clock'>,
  orgId: string,
  simReplies: SimReply[],
  campaignIdFor: (reference: string) => string | null,
): Promise<SimIngestResult> {
  const out: SimIngestResult = { ingested: 0, duplicates: 0, unmapped: 0, reply_ids: [] };
  const { db } = services;
  for (const r of simReplies) {
    const campaignId = campaignIdFor(r.reference);
    if (!campaignId) {
      out.unmapped++;
      continue;
    }
    const name = [r.first_name, r.last_name].filter(Boolean).join(' ') || null;
    // Classified before the transaction: a hosted model may take seconds and must not hold the lock.
    const prepared = await prepareReply(
      { from_email: r.email, from_name: name, subject: null, text: r.body, rfc_message_id: r.message_id, provider_ref: { sequencer: 'sim', provider_campaign_id: r.provider_campaign_id, step: r.step } },
      services.classify,
    );
    const now = services.clock.now();
    const stored = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`sim-reply:${orgId}:${r.message_id}`}, 0))`);
      const [seen] = await tx
        .select({ id: replies.id })
        .from(replies)
        .where(and(eq(replies.orgId, orgId), eq(replies.fromEmail, prepared.email), eq(replies.rfcMessageId, r.message_id)))
        .limit(1);
      if (seen) return null;
      const [campaign] = await tx
        .select({ id: campaigns.id, name: campaigns.name })
        .from(campaigns)
        .where(and(eq(campaigns.id, campaignId), eq(campaigns.orgId, orgId)));
      if (!campaign) return undefined;
      return storeReply(tx, { orgId, campaign, prepared, sourceId: null, now });
    });
    if (stored === null) out.duplicates++;
    else if (stored === undefined) out.unmapped++;
    else {
      out.ingested++;
      out.reply_ids.push(stored.reply.id);
    }
  }
  return out;
}
