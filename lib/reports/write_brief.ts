import type { BriefType } from './generate_report';

type Person = { email: string; name: string | null; campaign_name: string };

/** Everything is the period's: replies received, answers sent, and per campaign the replies that came in. */
export type BriefStats = {
  replies_total: number;
  replies_by_classification: Record<string, number>;
  /** Hot leads whose latest reply came in during the period (newest first, at most 10). */
  hot_leads: Person[];
  /** Of those, the ones still to answer when the brief was written: not answered or skipped, not won or lost. */
  follow_up: Person[];
  sends: number;
  /** Campaigns with replies in the period: replies, prospects who replied, and hot + warm replies among them. */
  campaigns: { id: string; name: string; replies: number; replied: number; positive: number; positive_rate: number }[];
};

export type BriefPeriod = { start: Date; endExclusive: Date; startDate: string; endDate: string };

const DAY = 86_400_000;
const dateOf = (d: Date) => d.toISOString().slice(0, 10);
const midnight = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));

/**
 * friday: the working week so far, Monday to today (the recap sent at the end of the week).
 * monday: the previous seven days, Monday to Sunday (the brief that opens the week).
 */
export function briefPeriod(type: BriefType, now: Date): BriefPeriod {
  const today = midnight(now);
  const weekday = (today.getUTCDay() + 6) % 7; // Monday = 0
  if (type === 'friday') {
    const start = new Date(today.getTime() - weekday * DAY);
    return { start, endExclusive: new Date(today.getTime() + DAY), startDate: dateOf(start), endDate: dateOf(today) };
  }
  const thisMonday = new Date(today.getTime() - weekday * DAY);
  const start = new Date(thisMonday.getTime() - 7 * DAY);
  const end = new Date(thisMonday.getTime() - DAY);
  return { start, endExclusive: thisMonday, startDate: dateOf(start), endDate: dateOf(end) };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function writeBrief(type: BriefType, period: BriefPeriod, s: BriefStats) {
  const c = s.replies_by_classification;
  const positive = (c.hot ?? 0) + (c.warm ?? 0);
  const best = s.campaigns.filter((x) => x.positive > 0).sort((a, b) => b.positive - a.positive || b.positive_rate - a.positive_rate)[0];
  const range = `${period.startDate} to ${period.endDate}`;
  const title = type === 'friday' ? `Friday recap: ${range}` : `Monday brief: week of ${period.startDate}`;
  const summary =
    s.replies_total === 0
      ? `No replies came in from ${range}. ${s.sends > 0 ? `${plural(s.sends, 'reply was', 'replies were')} sent.` : 'Nothing was sent.'} Check that campaigns are active and sending.`
      : `${plural(s.replies_total, 'reply', 'replies')} came in from ${range}: ${plural(c.hot ?? 0, 'hot lead')} and ${c.warm ?? 0} warm, ` +
        `${pct(positive / s.replies_total)} positive. ${plural(s.sends, 'answer')} went out.` +
        (best ? ` Most positive replies: ${best.name} (${best.positive} of ${best.replies}, ${pct(best.positive_rate)}).` : '');
  const bullets = [
    `Replies by classification: hot ${c.hot ?? 0}, warm ${c.warm ?? 0}, cold ${c.cold ?? 0}, not interested ${c.not_interested ?? 0}, out of office ${c.ooo ?? 0}.`,
    ...s.follow_up.slice(0, 5).map((h) => `Hot: ${h.name ? `${h.name} <${h.email}>` : h.email} (${h.campaign_name}) - follow up today.`),
    `Sends in the period: ${s.sends}.`,
    ...s.campaigns
      .slice(0, 5)
      .map((x) => `${x.name}: ${plural(x.replies, 'reply', 'replies')} from ${plural(x.replied, 'prospect')} in the period, ${x.positive} positive (${pct(x.positive_rate)}).`),
  ];
  if (type === 'monday' && (c.warm ?? 0) > 0) bullets.push(`This week: nurture the ${plural(c.warm ?? 0, 'warm reply', 'warm replies')} before they go cold.`);
  return { title, summary, bullets, targetRole: type === 'friday' ? 'agency_owner' : 'sdr_team' };
}
