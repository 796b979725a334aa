// The simulated sequencer's day (agency-operator.md §6), hourly like the mailbox tick: for each organization with
// simulated Studio campaigns whose local time has reached SEND_HOUR, each day since the last one it ran (the day
// marker is an audit row `sequencer.day`, at most CATCH_UP_DAYS back) is sent: first the campaigns' mailboxes and
// caps are refreshed from today's mailboxes (the mailbox tick at local midnight set them; a parked one drops out),
// then runSimSequencerDay, whose unique sends make a repeated day send nothing twice. Replies then enter the core
// ingestion from the stored sends that have no core reply yet, so a crash between the day and the ingestion loses
// none: the next tick ingests them. Production (SEQUENCER=instantly) sends on its own and its replies come in by
// its webhook (/v1/inbound/{source_id}); this tick does nothing there.
import { and, desc, eq, sql } from 'drizzle-orm';
import { auditLog, organizations, studioCampaigns } from '../../schema';
import { registerTick } from '../clock/ticks';
import { sha256Hex } from '../crypto/secrets';
import { rows } from '../db/types';
import { errorText } from '../log';
import { dayIn } from '../pool/day';
import { ingestSimReplies } from '../ports/sequencer/replies';
import { addDays, runSimSequencerDay, type SimReply } from '../ports/sequencer/sim_day';
import type { Services } from '../services';
import { sendingMailboxes } from './mailboxes';

export const SEQUENCER_TICK = 'sequencer.sim_day';
/** Local hour a simulated day's mail goes out: after the 08:00 plan steps that pushed it. */
export const SEND_HOUR = 9;
export const CATCH_UP_DAYS = 7;
const DAY_MARK = 'sequencer.day';
const INGEST_LIMIT = 500;

const localHour = (timeZone: string, at: Date) => {
  try {
    return Number(new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(at));
  } catch {
    return at.getUTCHours();
  }
};

export type SequencerTickResult = { days: number; sent: number; bounced: number; replied: number; ingested: number };

export async function runSequencerTick(services: Services, at: Date, opts: { orgIds?: string[] } = {}): Promise<SequencerTickResult> {
  const total: SequencerTickResult = { days: 0, sent: 0, bounced: 0, replied: 0, ingested: 0 };
  if (services.studio.sequencer.kind !== 'sim') return total;
  const orgs = await rows<{ id: string; timezone: string }>(
    services.db,
    sql`select o.id, o.timezone from ${organizations} o
        where exists (select 1 from studio_campaigns s where s.org_id = o.id and s.provider_campaign_id is not null)
        ${opts.orgIds ? sql`and o.id = any(${sql.param(opts.orgIds)}::uuid[])` : sql``}`,
  );
  for (const org of orgs) {
    try {
      const r = await runOrgDays(services, org.id, org.timezone, at);
      total.days += r.days;
      total.sent += r.sent;
      total.bounced += r.bounced;
      total.replied += r.replied;
      total.ingested += await ingestPendingReplies(services, org.id);
    } catch (err) {
      services.log.warn('sequencer day failed; the next tick tries again', { orgId: org.id, error: errorText(err) });
    }
  }
  return total;
}

async function runOrgDays(services: Services, orgId: string, timeZone: string, at: Date) {
  const out = { days: 0, sent: 0, bounced: 0, replied: 0 };
  const today = dayIn(timeZone, at);
  const lastDue = localHour(timeZone, at) >= SEND_HOUR ? today : addDays(today, -1);
  const [mark] = await services.db
    .select({ detail: auditLog.detail })
    .from(auditLog)
    .where(and(eq(auditLog.orgId, orgId), eq(auditLog.action, DAY_MARK)))
    .orderBy(desc(sql`${auditLog.detail} ->> 'day'`))
    .limit(1);
  const lastRun = (mark?.detail as { day?: string } | undefined)?.day;
  let day = lastRun ? addDays(lastRun, 1) : lastDue;
  if (day < addDays(lastDue, -CATCH_UP_DAYS + 1)) day = addDays(lastDue, -CATCH_UP_DAYS + 1);
  if (day > lastDue) return out;
  await refreshMailboxes(services, orgId);
  for (; day <= lastDue; day = addDays(day, 1)) {
    const r = await runSimSequencerDay(services.db, services.config.SIM_SEED, orgId, day);
    out.days++;
    out.sent += r.sent;
    out.bounced += r.bounced;
    out.replied += r.replied;
    await services.db.insert(auditLog).values({ orgId, actor: 'system', action: DAY_MARK, target: `org:${orgId}`, detail: { day, sent: r.sent, bounced: r.bounced, replied: r.replied }, at });
  }
  // The core campaigns' own "sent" figure follows the mails the sequencer sent for them.
  await services.db.execute(sql`
    update campaigns c set sent = t.n, stats_last_synced_at = ${at.toISOString()}::timestamptz
    from (select s.campaign_id as core, count(x.*)::int as n
          from studio_campaigns s join sim_sequencer_campaigns q on q.org_id = s.org_id and q.reference = s.id::text
          left join sim_sequencer_sends x on x.campaign_id = q.id
          where s.org_id = ${orgId}::uuid and s.campaign_id is not null group by s.campaign_id) t
    where c.id = t.core and c.org_id = ${orgId}::uuid`);
  return out;
}

/** Today's sending mailboxes of each pushed campaign, as its simulated campaign sends from them. */
async function refreshMailboxes(services: Services, orgId: string) {
  const pushed = await services.db
    .select({ id: studioCampaigns.id, name: studioCampaigns.name, campaignId: studioCampaigns.campaignId })
    .from(studioCampaigns)
    .where(and(eq(studioCampaigns.orgId, orgId), sql`${studioCampaigns.providerCampaignId} is not null`));
  for (const c of pushed) {
    if (!c.campaignId) continue;
    const mailboxes = await sendingMailboxes(services.db, orgId, c.campaignId);
    await services.studio.sequencer.ensureCampaign({ db: services.db }, { orgId, reference: c.id, name: c.name, mailboxes });
  }
}

type PendingReply = { provider_campaign_id: string; reference: string; email: string; step: number; body: string; fields: Record<string, string | null> | null };

/**
 * Replied sends of the organization's Studio campaigns without their core reply yet (matched by the reply's
 * provider_ref), rebuilt into the simulation's reply (the message id is the same hash the day used).
 */
async function ingestPendingReplies(services: Services, orgId: string): Promise<number> {
  const pending = await rows<PendingReply>(
    services.db,
    sql`select x.campaign_id::text as provider_campaign_id, q.reference, x.lead_email as email, x.step, x.reply_body as body, l.fields
        from sim_sequencer_sends x
        join sim_sequencer_campaigns q on q.id = x.campaign_id
        join studio_campaigns s on s.org_id = q.org_id and s.id::text = q.reference and s.campaign_id is not null
        left join sim_sequencer_leads l on l.campaign_id = x.campaign_id and l.email = x.lead_email
        where x.org_id = ${orgId}::uuid and x.outcome = 'replied'
          and not exists (select 1 from replies r where r.org_id = ${orgId}::uuid and r.from_email = x.lead_email
                            and r.provider_ref ->> 'provider_campaign_id' = x.campaign_id::text and (r.provider_ref ->> 'step')::int = x.step)
        order by x.day, x.at, x.id
        limit ${INGEST_LIMIT}`,
  );
  if (pending.length === 0) return 0;
  const seed = services.config.SIM_SEED;
  const replies: SimReply[] = [];
  for (const p of pending) {
    const hash = await sha256Hex(`${seed}|sequencer-send|${p.reference}|${p.email}|${p.step}`);
    replies.push({
      provider_campaign_id: p.provider_campaign_id,
      reference: p.reference,
      email: p.email,
      first_name: p.fields?.first_name ?? null,
      last_name: p.fields?.last_name ?? null,
      body: p.body,
      message_id: `<sim-${hash.slice(0, 32)}@sequencer.sim>`,
      step: Number(p.step),
    });
  }
  const refs = [...new Set(replies.map((r) => r.reference))];
  const cores = await services.db
    .select({ id: studioCampaigns.id, campaignId: studioCampaigns.campaignId })
    .from(studioCampaigns)
    .where(and(eq(studioCampaigns.orgId, orgId), sql`${studioCampaigns.id}::text = any(${sql.param(refs)}::text[])`));
  const coreOf = new Map(cores.map((c) => [c.id, c.campaignId]));
  const r = await ingestSimReplies(services, orgId, replies, (ref) => coreOf.get(ref) ?? null);
  return r.ingested;
}

/** Hourly; each organization's day runs once its local time reaches SEND_HOUR (and missed days are caught up). */
export function registerSequencerTick() {
  registerTick(SEQUENCER_TICK, { everySeconds: 3600 }, async (services, at) => {
    await runSequencerTick(services, at);
  });
}
