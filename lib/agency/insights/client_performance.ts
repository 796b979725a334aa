import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { campaigns } from '../../../schema';
import { rows, type Db } from '../../db/types';
import { findClient } from '../clients/view';
import { CAMPAIGN_STATUSES } from '../campaigns/view';
import type { AgencyCall } from '../operation';
import { rate, ReceivedSchema, receivedIn, SendsSchema, sendsIn, type Scope } from './counts';
import { periodOf, PeriodSchema, periodView, type Period } from './period';

export const PERFORMANCE_DEFAULT_DAYS = 30;

const CampaignPerformance = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  provider: z.string().nullable(),
  provider_campaign_id: z.string().nullable(),
  lifetime: z
    .object({
      sent: z.number().int(),
      opened: z.number().int(),
      replied: z.number().int().describe('distinct prospects who ever replied'),
      open_rate: z.number(),
      reply_rate: z.number(),
      stats_last_synced_at: z.string(),
    })
    .describe("the sending tool's counters as last synced; not limited to the period"),
  period: z.object({ replies: z.number().int(), positive: z.number().int(), sends: z.number().int() }),
});

export const PerformanceSchema = z.object({
  client: z.object({ id: z.string(), name: z.string() }),
  period: PeriodSchema,
  replies: ReceivedSchema,
  sends: SendsSchema,
  campaigns: z.array(CampaignPerformance),
});
export type Performance = z.infer<typeof PerformanceSchema>;

/** Each of the client's campaigns with its period counts; a campaign without activity still shows, with zeros. */
async function perCampaign(db: Db, scope: Scope & { clientId: string }, p: Period) {
  const list = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.orgId, scope.orgId), eq(campaigns.clientId, scope.clientId)))
    .orderBy(asc(campaigns.name), asc(campaigns.id));
  if (list.length === 0) return [];
  const from = p.from.toISOString();
  const to = p.to.toISOString();
  const ids = sql.join(list.map((c) => sql`${c.id}::uuid`), sql`, `);
  const [replyCounts, sendCounts] = await Promise.all([
    rows<{ campaign_id: string; replies: number; positive: number }>(
      db,
      sql`select r.campaign_id, count(*)::int as replies, count(*) filter (where r.classification in ('hot', 'warm'))::int as positive
          from replies r
          where r.org_id = ${scope.orgId}::uuid and r.campaign_id in (${ids}) and r.received_at >= ${from}::timestamptz and r.received_at < ${to}::timestamptz
          group by r.campaign_id`,
    ),
    rows<{ campaign_id: string; sends: number }>(
      db,
      sql`select l.campaign_id, count(*)::int as sends
          from decisions d join leads l on l.id = d.lead_id
          where d.org_id = ${scope.orgId}::uuid and d.action = 'reply.sent' and d.at >= ${from}::timestamptz and d.at < ${to}::timestamptz
            and l.campaign_id in (${ids})
          group by l.campaign_id`,
    ),
  ]);
  const replies = new Map(replyCounts.map((r) => [r.campaign_id, r]));
  const sends = new Map(sendCounts.map((s) => [s.campaign_id, Number(s.sends)]));
  return list.map((c) => ({
    id: c.id,
    name: c.name,
    status: c.status,
    provider: c.provider,
    provider_campaign_id: c.providerCampaignId,
    lifetime: {
      sent: c.sent,
      opened: c.opened,
      replied: c.replied,
      open_rate: rate(c.opened, c.sent),
      reply_rate: rate(c.replied, c.sent),
      stats_last_synced_at: c.statsLastSyncedAt.toISOString(),
    },
    period: { replies: Number(replies.get(c.id)?.replies ?? 0), positive: Number(replies.get(c.id)?.positive ?? 0), sends: sends.get(c.id) ?? 0 },
  }));
}

/**
 * get_client_performance: one client's replies (by classification, positive = hot + warm and its rate), the
 * messages the service sent, and each of its campaigns, over [from, to) (default the last 30 days).
 */
export async function clientPerformance(call: AgencyCall, input: { client_id: string; from?: string; to?: string }): Promise<Performance> {
  const { db } = call.services;
  const period = periodOf(input, call.now, PERFORMANCE_DEFAULT_DAYS);
  const client = await findClient(db, call.auth.orgId, input.client_id);
  const scope = { orgId: call.auth.orgId, clientId: client.id };
  const [replies, sends, list] = await Promise.all([receivedIn(db, scope, period), sendsIn(db, scope, period), perCampaign(db, scope, period)]);
  return { client: { id: client.id, name: client.name }, period: periodView(period), replies, sends, campaigns: list };
}
