// campaign_analytics: the client's Studio campaigns checked at 200, 500 and 1,000 prospects contacted, counted
// cumulatively over its campaigns in the order the first mail went out. A checkpoint looks at its first N prospects
// (a cohort, so a later checkpoint never changes an earlier one's denominator) and everything they did so far:
// bounced (any mail), replied, positive (their core lead is hot or warm). Thresholds: see VERDICT below.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { findClient } from '../agency/clients/view';
import type { AgencyCall } from '../agency/operation';
import { rows } from '../db/types';

export const CHECKPOINTS = [200, 500, 1000] as const;
/** Bounce at or over 3 % (the mailbox "failing" line) stops; 2 % (the unpark line), under 1 % replies or under 0.2 % positive: watch. */
export const VERDICT = { stopBounce: 0.03, watchBounce: 0.02, watchReply: 0.01, watchPositive: 0.002 } as const;

const Checkpoint = z.object({
  prospects: z.number().int(),
  reached: z.boolean(),
  bounce_rate: z.number().nullable(),
  reply_rate: z.number().nullable(),
  positive_rate: z.number().nullable(),
  verdict: z.enum(['healthy', 'watch', 'stop']).nullable(),
  reasons: z.array(z.string()),
});
export const CampaignHealthSchema = z.object({
  client_id: z.string(),
  prospects_contacted: z.number().int(),
  checkpoints: z.array(Checkpoint),
  thresholds: z.object({ stop_bounce_rate: z.number(), watch_bounce_rate: z.number(), watch_reply_rate: z.number(), watch_positive_rate: z.number() }),
  bounce_known: z.boolean().describe('false when the sequencer reports no bounces (Instantly): bounce_rate is null'),
});
export type CampaignHealth = z.infer<typeof CampaignHealthSchema>;

type Prospect = { bounced: boolean; replied: boolean; positive: boolean };
const round = (x: number) => Math.round(x * 10_000) / 10_000;

export function verdictOf(bounce: number | null, reply: number, positive: number): { verdict: 'healthy' | 'watch' | 'stop'; reasons: string[] } {
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  if (bounce !== null && bounce >= VERDICT.stopBounce) return { verdict: 'stop', reasons: [`bounce rate ${pct(bounce)} is at or over ${pct(VERDICT.stopBounce)}`] };
  const reasons: string[] = [];
  if (bounce !== null && bounce >= VERDICT.watchBounce) reasons.push(`bounce rate ${pct(bounce)} is at or over ${pct(VERDICT.watchBounce)}`);
  if (reply < VERDICT.watchReply) reasons.push(`reply rate ${pct(reply)} is under ${pct(VERDICT.watchReply)}`);
  if (positive < VERDICT.watchPositive) reasons.push(`positive-reply rate ${pct(positive)} is under ${pct(VERDICT.watchPositive)}`);
  return { verdict: reasons.length ? 'watch' : 'healthy', reasons };
}

/** The client's first 1,000 prospects in contact order, each with what they did; sim sends, else pushed leads. */
async function prospectsOf(db: AgencyCall['services']['db'], orgId: string, clientId: string): Promise<{ list: Prospect[]; total: number; bounceKnown: boolean }> {
  const max = CHECKPOINTS[CHECKPOINTS.length - 1];
  const sim = await rows<{ bounced: boolean; replied: boolean; positive: boolean; total: number }>(
    db,
    sql`select exists (select 1 from sim_sequencer_sends b where b.campaign_id = x.campaign_id and b.lead_email = x.lead_email and b.outcome = 'bounced') as bounced,
               exists (select 1 from sim_sequencer_sends r where r.campaign_id = x.campaign_id and r.lead_email = x.lead_email and r.outcome = 'replied') as replied,
               exists (select 1 from leads l where l.org_id = s.org_id and l.campaign_id = s.campaign_id and l.email = x.lead_email and l.classification in ('hot', 'warm')) as positive,
               count(*) over ()::int as total
        from sim_sequencer_sends x
        join sim_sequencer_campaigns q on q.id = x.campaign_id
        join studio_campaigns s on s.org_id = q.org_id and s.id::text = q.reference
        where s.org_id = ${orgId}::uuid and s.client_id = ${clientId}::uuid and x.step = 1
        order by x.day, x.at, x.id
        limit ${max}`,
  );
  if (sim.length) return { list: sim, total: Number(sim[0].total), bounceKnown: true };
  const pushed = await rows<{ bounced: boolean; replied: boolean; positive: boolean; total: number }>(
    db,
    sql`select false as bounced,
               exists (select 1 from leads l where l.org_id = s.org_id and l.campaign_id = s.campaign_id and l.email = c.email and l.reply_count > 0) as replied,
               exists (select 1 from leads l where l.org_id = s.org_id and l.campaign_id = s.campaign_id and l.email = c.email and l.classification in ('hot', 'warm')) as positive,
               count(*) over ()::int as total
        from studio_campaign_leads c join studio_campaigns s on s.id = c.studio_campaign_id
        where s.org_id = ${orgId}::uuid and s.client_id = ${clientId}::uuid and s.sequencer <> 'sim' and c.outcome = 'pushed'
        order by c.at, c.pool_lead_id
        limit ${max}`,
  );
  return { list: pushed, total: Number(pushed[0]?.total ?? 0), bounceKnown: false };
}

export async function campaignHealth(db: AgencyCall['services']['db'], orgId: string, clientId: string): Promise<CampaignHealth> {
  const { list, total, bounceKnown } = await prospectsOf(db, orgId, clientId);
  const checkpoints = CHECKPOINTS.map((n) => {
    if (list.length < n) return { prospects: n, reached: false, bounce_rate: null, reply_rate: null, positive_rate: null, verdict: null, reasons: [] };
    const cohort = list.slice(0, n);
    const rate = (f: (p: Prospect) => boolean) => round(cohort.filter(f).length / n);
    const bounce = bounceKnown ? rate((p) => p.bounced) : null;
    const reply = rate((p) => p.replied);
    const positive = rate((p) => p.positive);
    return { prospects: n, reached: true, bounce_rate: bounce, reply_rate: reply, positive_rate: positive, ...verdictOf(bounce, reply, positive) };
  });
  return {
    client_id: clientId,
    prospects_contacted: total,
    checkpoints,
    thresholds: { stop_bounce_rate: VERDICT.stopBounce, watch_bounce_rate: VERDICT.watchBounce, watch_reply_rate: VERDICT.watchReply, watch_positive_rate: VERDICT.watchPositive },
    bounce_known: bounceKnown,
  };
}

export async function campaignAnalytics(call: AgencyCall, input: { client_id: string }) {
  const { db } = call.services;
  await findClient(db, call.auth.orgId, input.client_id);
  return { health: await campaignHealth(db, call.auth.orgId, input.client_id) };
}
