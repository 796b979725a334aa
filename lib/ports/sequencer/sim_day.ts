// One simulated sending day of an organization's sequencer campaigns (agency-operator.md §6). For each active
// campaign, the leads whose next mail is due go out in the order they were pushed, round-robin over the campaign's
// mailboxes, each mailbox sending at most its daily cap that day (counted over every campaign of the organization,
// so a re-run or a second campaign never adds to it); the rest wait for the next day. What a send does is a
// function of SHA-256 of SIM_SEED and (campaign reference, email, step): about 2 % bounce (5 % from a mailbox on a `fail-`
// domain), about 4 % are answered, the rest are sent. A bounce or a reply ends the lead's sequence; otherwise the
// lead's next mail is due that mail's delay_days later. The unique (campaign, email, step) of sim_sequencer_sends
// makes a re-run of the same day send nothing twice: only the rows this run inserted advance their leads.
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { simSequencerCampaigns, simSequencerLeads, simSequencerSends } from '../../../schema';
import { sha256Hex } from '../../crypto/secrets';
import type { Db } from '../../db/types';
import type { SequencerMail } from './port';

export const SIM_BOUNCE_PER_10K = 200;
export const SIM_FAIL_DOMAIN_BOUNCE_PER_10K = 500;
export const SIM_REPLY_PER_10K = 400;
const INSERT_CHUNK = 500;

export type SimReply = {
  provider_campaign_id: string;
  reference: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  body: string;
  message_id: string;
  step: number;
};
export type SimDayResult = { sent: number; bounced: number; replied: number; replies: SimReply[] };

type Outcome = 'sent' | 'bounced' | 'replied';
type LeadRow = typeof simSequencerLeads.$inferSelect;

const INTENTS: ((name: string) => string)[] = [
  (n) => `Hi, ${n} here. This sounds interesting and timely for us. Could we book a call next week? Tuesday or Wednesday afternoon works for me.`,
  (n) => `Thanks for reaching out. Can you send me more information, a short overview and pricing? I'll take a look. ${n}`,
  (n) => `Hi, thanks but we are not interested at the moment. Please don't follow up. Best, ${n}`,
  (n) => `I am out of the office until next Monday with limited access to email. I will reply when I am back. Regards, ${n}`,
  (n) => `Hello, I think you have the wrong person, ${n} does not handle this at our company. Sorry I can't help.`,
];

/** The text a simulated prospect answers with: one of a few intents by hash, signed with the first name. */
export function simReplyBody(hash: string, firstName: string | null): string {
  return INTENTS[parseInt(hash.slice(8, 12), 16) % INTENTS.length](firstName?.trim() || 'there');
}

export function outcomeOf(hash: string, mailbox: string): Outcome {
  const u = parseInt(hash.slice(0, 8), 16) % 10_000;
  const bounce = mailbox.slice(mailbox.indexOf('@') + 1).startsWith('fail-') ? SIM_FAIL_DOMAIN_BOUNCE_PER_10K : SIM_BOUNCE_PER_10K;
  if (u < bounce) return 'bounced';
  if (u < bounce + SIM_REPLY_PER_10K) return 'replied';
  return 'sent';
}

export const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

export async function runSimSequencerDay(db: Db, seed: string, orgId: string, day: string): Promise<SimDayResult> {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) throw new Error(`runSimSequencerDay: "${day}" is not a YYYY-MM-DD day`);
  const result: SimDayResult = { sent: 0, bounced: 0, replied: 0, replies: [] };
  const campaigns = await db
    .select()
    .from(simSequencerCampaigns)
    .where(and(eq(simSequencerCampaigns.orgId, orgId), eq(simSequencerCampaigns.status, 'active')))
    .orderBy(asc(simSequencerCampaigns.createdAt), asc(simSequencerCampaigns.id));
  if (!campaigns.length) return result;

  // What each mailbox already sent today (earlier run of this day, or another campaign): one read for the org.
  const used = new Map<string, number>(
    (
      await db
        .select({ mailbox: simSequencerSends.mailbox, n: sql<number>`count(*)::int` })
        .from(simSequencerSends)
        .where(and(eq(simSequencerSends.orgId, orgId), eq(simSequencerSends.day, day)))
        .groupBy(simSequencerSends.mailbox)
    ).map((r) => [r.mailbox, Number(r.n)]),
  );

  for (const campaign of campaigns) {
    const room = campaign.mailboxes.map((m) => ({ address: m.address, left: Math.max(0, m.daily_cap - (used.get(m.address) ?? 0)) }));
    let capacity = room.reduce((s, m) => s + m.left, 0);
    if (capacity === 0) continue;
    const due = await db
      .select()
      .from(simSequencerLeads)
      .where(
        and(
          eq(simSequencerLeads.campaignId, campaign.id),
          sql`${simSequencerLeads.nextStep} is not null`,
          or(isNull(simSequencerLeads.nextDay), lte(simSequencerLeads.nextDay, day)),
        ),
      )
      .orderBy(asc(simSequencerLeads.addedAt), asc(simSequencerLeads.email))
      .limit(capacity);

    type Planned = { lead: LeadRow; mail: SequencerMail; mailbox: string; outcome: Outcome; hash: string };
    const planned: Planned[] = [];
    let turn = 0;
    for (const lead of due) {
      const mail = lead.mails.find((m) => m.step === lead.nextStep);
      if (!mail) continue;
      // Round-robin over the mailboxes that still have room today.
      while (room[turn % room.length].left === 0) turn++;
      const box = room[turn % room.length];
      turn++;
      box.left--;
      capacity--;
      const hash = await sha256Hex(`${seed}|sequencer-send|${campaign.reference}|${lead.email}|${mail.step}`);
      planned.push({ lead, mail, mailbox: box.address, outcome: outcomeOf(hash, box.address), hash });
      if (capacity === 0) break;
    }
    // Leads whose next step has no mail (a pushed list with gaps) end here rather than block the queue.
    const orphaned = due.filter((l) => !l.mails.some((m) => m.step === l.nextStep)).map((l) => l.id);
    if (orphaned.length) await db.update(simSequencerLeads).set({ nextStep: null, nextDay: null }).where(inArray(simSequencerLeads.id, orphaned));

    const sentKeys = new Set<string>();
    for (let i = 0; i < planned.length; i += INSERT_CHUNK) {
      const chunk = planned.slice(i, i + INSERT_CHUNK);
      const inserted = await db
        .insert(simSequencerSends)
        .values(
          chunk.map((p) => ({
            orgId,
            campaignId: campaign.id,
            leadEmail: p.lead.email,
            step: p.mail.step,
            mailbox: p.mailbox,
            day,
            outcome: p.outcome,
            replyBody: p.outcome === 'replied' ? simReplyBody(p.hash, p.lead.fields.first_name ?? null) : null,
          })),
        )
        .onConflictDoNothing()
        .returning({ email: simSequencerSends.leadEmail, step: simSequencerSends.step });
      for (const r of inserted) sentKeys.add(`${r.email}|${r.step}`);
    }

    // Leads advance in groups sharing their new (next_step, next_day): a few statements, not one per lead.
    const groups = new Map<string, { nextStep: number | null; nextDay: string | null; ids: string[] }>();
    for (const p of planned) {
      if (!sentKeys.has(`${p.lead.email}|${p.mail.step}`)) continue;
      used.set(p.mailbox, (used.get(p.mailbox) ?? 0) + 1);
      result[p.outcome]++;
      const next = p.outcome === 'sent' ? p.lead.mails.filter((m) => m.step > p.mail.step).sort((a, b) => a.step - b.step)[0] : undefined;
      const nextStep = next?.step ?? null;
      const nextDay = next ? addDays(day, Math.max(0, next.delay_days)) : null;
      const key = `${nextStep}|${nextDay}`;
      const g = groups.get(key) ?? { nextStep, nextDay, ids: [] };
      g.ids.push(p.lead.id);
      groups.set(key, g);
      if (p.outcome === 'replied') {
        result.replies.push({
          provider_campaign_id: campaign.id,
          reference: campaign.reference,
          email: p.lead.email,
          first_name: p.lead.fields.first_name ?? null,
          last_name: p.lead.fields.last_name ?? null,
          body: simReplyBody(p.hash, p.lead.fields.first_name ?? null),
          message_id: `<sim-${p.hash.slice(0, 32)}@sequencer.sim>`,
          step: p.mail.step,
        });
      }
    }
    for (const g of groups.values()) {
      for (let i = 0; i < g.ids.length; i += INSERT_CHUNK) {
        await db
          .update(simSequencerLeads)
          .set({ nextStep: g.nextStep, nextDay: g.nextDay })
          .where(inArray(simSequencerLeads.id, g.ids.slice(i, i + INSERT_CHUNK)));
      }
    }
  }
  return result;
}
