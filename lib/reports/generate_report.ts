import { and, eq, isNull } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import { reports } from '../../schema';
import type { Db } from '../db/types';
import { rows } from '../db/types';
import { reportView } from './views';
import { briefPeriod, writeBrief, type BriefStats } from './write_brief';

export type BriefType = 'friday' | 'monday';

/**
 * What happened in the period, straight from the organization's data (one client's when given), read when the brief
 * is generated: a lead answered since, or marked won or lost, is no longer one to follow up.
 */
async function collectStats(db: Db, orgId: string, clientId: string | null, start: Date, end: Date): Promise<BriefStats> {
  const client = clientId ? sql` and c.client_id = ${clientId}` : sql``;
  const s = start.toISOString();
  const e = end.toISOString();
  const [byClass, hot, followUp, sends, perCampaign] = await Promise.all([
    rows<{ classification: string | null; n: number }>(
      db,
      sql`select r.classification, count(*)::int as n from replies r join campaigns c on c.id = r.campaign_id
          where r.org_id = ${orgId}${client} and r.received_at >= ${s} and r.received_at < ${e} group by r.classification`,
    ),
    rows<{ email: string; name: string | null; campaign_name: string }>(
      db,
      sql`select l.email, l.name, c.name as campaign_name from leads l join campaigns c on c.id = l.campaign_id
          where l.org_id = ${orgId}${client} and l.classification = 'hot' and l.last_reply_at >= ${s} and l.last_reply_at < ${e}
          order by l.last_reply_at desc limit 10`,
    ),
    // Hot leads of the period still waiting for us: their latest reply is neither answered nor skipped, and the
    // deal is not closed (won or lost) in the CRM.
    rows<{ email: string; name: string | null; campaign_name: string }>(
      db,
      sql`select l.email, l.name, c.name as campaign_name from leads l join campaigns c on c.id = l.campaign_id
          where l.org_id = ${orgId}${client} and l.classification = 'hot' and l.last_reply_at >= ${s} and l.last_reply_at < ${e}
            and l.phase not in ('won', 'lost')
            and coalesce((select r.status from replies r where r.lead_id = l.id order by r.received_at desc, r.id desc limit 1), 'unanswered')
                not in ('sent', 'skipped')
          order by l.last_reply_at desc limit 10`,
    ),
    rows<{ n: number }>(
      db,
      sql`select count(*)::int as n from replies r join campaigns c on c.id = r.campaign_id
          where r.org_id = ${orgId}${client} and r.status = 'sent' and r.sent_at >= ${s} and r.sent_at < ${e}`,
    ),
    // Per campaign, the period's replies only (the campaign's lifetime counters are on GET /v1/campaigns).
    rows<{ id: string; name: string; replies: number; replied: number; positive: number }>(
      db,
      sql`select c.id, c.name, count(*)::int as replies, count(distinct r.lead_id)::int as replied,
                 count(*) filter (where r.classification in ('hot', 'warm'))::int as positive
          from replies r join campaigns c on c.id = r.campaign_id
          where r.org_id = ${orgId}${client} and r.received_at >= ${s} and r.received_at < ${e}
          group by c.id, c.name order by replied desc, c.name limit 20`,
    ),
  ]);
  const replies_by_classification: Record<string, number> = { hot: 0, warm: 0, cold: 0, not_interested: 0, ooo: 0 };
  for (const r of byClass) if (r.classification) replies_by_classification[r.classification] = Number(r.n);
  const person = (h: { email: string; name: string | null; campaign_name: string }) => ({ email: h.email, name: h.name, campaign_name: h.campaign_name });
  return {
    replies_total: byClass.reduce((sum, r) => sum + Number(r.n), 0),
    replies_by_classification,
    hot_leads: hot.map(person),
    follow_up: followUp.map(person),
    sends: Number(sends[0]?.n ?? 0),
    campaigns: perCampaign.map((c) => ({
      id: c.id,
      name: c.name,
      replies: Number(c.replies),
      replied: Number(c.replied),
      positive: Number(c.positive),
      positive_rate: Number(c.replies) > 0 ? Math.round((Number(c.positive) / Number(c.replies)) * 10_000) / 10_000 : 0,
    })),
  };
}

export async function generateReport({ db, orgId, clientId, briefType, now }: { db: Db; orgId: string; clientId: string | null; briefType: BriefType; now: Date }) {
  const period = briefPeriod(briefType, now);
  const stats = await collectStats(db, orgId, clientId, period.start, period.endExclusive);
  const brief = writeBrief(briefType, period, stats);
  const [row] = await db
    .insert(reports)
    .values({
      orgId,
      clientId,
      title: brief.title,
      briefType,
      targetRole: brief.targetRole,
      executiveSummary: brief.summary,
      summaryBullets: brief.bullets,
      statsSnapshot: stats as unknown as Record<string, unknown>,
      periodStart: period.startDate,
      periodEnd: period.endDate,
      generatedAt: now,
    })
    .returning();
  return reportView(row);
}

/** The scheduled run (Worker cron or embedded scheduler): one organization-wide brief per org and period. */
export async function generateScheduledBriefs({ db, briefType, now, orgIds }: { db: Db; briefType: BriefType; now: Date; orgIds: string[] }) {
  const period = briefPeriod(briefType, now);
  let generated = 0;
  for (const orgId of orgIds) {
    const [existing] = await db
      .select({ id: reports.id })
      .from(reports)
      .where(and(eq(reports.orgId, orgId), eq(reports.briefType, briefType), eq(reports.periodEnd, period.endDate), isNull(reports.clientId)))
      .limit(1);
    if (existing) continue;
    await generateReport({ db, orgId, clientId: null, briefType, now });
    generated++;
  }
  return generated;
}
