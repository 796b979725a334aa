// The day's decisions for a client's mailboxes, as a pure function of what the daily tick read: the warm-up and ramp
// steps, parking failing mailboxes (auto-protect) and swapping ready reserves in. No I/O, so the rules read in one
// place and the tick stays a handful of set-based statements around it.
import type { MailboxStatus } from '../../schema';
import { isFailing, parkReasonOf, type HealthState, type ParkReason } from './mailbox_health';
import { capFor, dayInStatus, RAMP_DAYS, WARMING_DAYS } from './ramp';

export type TickMailbox = {
  id: string;
  orgId: string;
  clientId: string;
  domainId: string;
  address: string;
  status: MailboxStatus;
  statusSince: string;
  rampStartCap: number;
  parkReason: string | null;
  parkedAt: Date | null;
  replacedMailboxId: string | null;
  attached: boolean;
  autoProtect: boolean;
  ruleCap: number;
};

export type NextState = {
  id: string;
  status: MailboxStatus;
  statusSince: string;
  dailyCap: number;
  parkReason: string | null;
  parkedAt: Date | null;
  replacedMailboxId: string | null;
};

export type Transition = { mailboxId: string; clientId: string; orgId: string; action: string; detail: Record<string, unknown> };

export type DayDecisions = {
  next: NextState[];
  transitions: Transition[];
  /** Parked mailbox → the reserve that takes over its campaigns. */
  swaps: { parkedId: string; reserveId: string }[];
  /** Parked today with no ready reserve: a reserve is proposed for them (lib/infra/protect.ts). */
  unreplaced: { id: string; orgId: string; clientId: string; parkedAt: Date }[];
};

type Working = NextState & { failing: boolean; attached: boolean; m: TickMailbox };

/**
 * `day` is the organization's day the tick opens; `health` the 7-day state each mailbox ends the previous day with.
 * A parked mailbox still attached to campaigns has not been replaced yet: it takes the next ready reserve, today or
 * on a later day when one is ready.
 */
export function decideDay(day: string, at: Date, mailboxes: TickMailbox[], health: Map<string, HealthState>): DayDecisions {
  const out: DayDecisions = { next: [], transitions: [], swaps: [], unreplaced: [] };
  const state = new Map<string, Working>();
  const note = (m: TickMailbox, action: string, detail: Record<string, unknown>) =>
    out.transitions.push({ mailboxId: m.id, clientId: m.clientId, orgId: m.orgId, action, detail: { address: m.address, day, ...detail } });

  for (const m of mailboxes) {
    const h = health.get(m.id) ?? { bounceRate7d: 0, connected: true, domainListed: false };
    let status = m.status;
    let since = m.statusSince;
    if (status === 'warming' && dayInStatus(since, day) > WARMING_DAYS) {
      status = m.attached ? 'ramping' : 'reserve';
      since = day;
      note(m, `mailbox.${status}`, { from: 'warming' });
    } else if (status === 'ramping' && dayInStatus(since, day) > RAMP_DAYS) {
      status = 'active';
      since = day;
      note(m, 'mailbox.active', { from: 'ramping', daily_cap: m.ruleCap });
    }
    const failing = isFailing(h);
    let parkReason = m.parkReason;
    let parkedAt = m.parkedAt;
    if (failing && m.autoProtect && (status === 'ramping' || status === 'active')) {
      const reason = parkReasonOf(h) as ParkReason;
      note(m, 'mailbox.parked', { from: status, reason, bounce_rate_7d: h.bounceRate7d, connected: h.connected, domain_listed: h.domainListed });
      status = 'parked';
      since = day;
      parkReason = reason;
      parkedAt = at;
    }
    state.set(m.id, { id: m.id, status, statusSince: since, dailyCap: 0, parkReason, parkedAt, replacedMailboxId: m.replacedMailboxId, failing, attached: m.attached, m });
  }

  // Swaps, per client: parked and still attached, oldest parking first, each takes the client's next ready reserve.
  const byClient = new Map<string, Working[]>();
  for (const s of state.values()) {
    const list = byClient.get(s.m.clientId);
    if (list) list.push(s);
    else byClient.set(s.m.clientId, [s]);
  }
  for (const list of byClient.values()) {
    const waiting = list
      .filter((s) => s.status === 'parked' && s.attached && s.m.autoProtect)
      .sort((a, b) => (a.parkedAt?.getTime() ?? 0) - (b.parkedAt?.getTime() ?? 0) || a.id.localeCompare(b.id));
    const reserves = list.filter((s) => s.status === 'reserve' && !s.failing).sort((a, b) => a.statusSince.localeCompare(b.statusSince) || a.id.localeCompare(b.id));
    for (const parked of waiting) {
      const reserve = reserves.shift();
      if (!reserve) {
        if (parked.statusSince === day && parked.m.status !== 'parked') out.unreplaced.push({ id: parked.id, orgId: parked.m.orgId, clientId: parked.m.clientId, parkedAt: parked.parkedAt! });
        continue;
      }
      reserve.status = 'ramping';
      reserve.statusSince = day;
      reserve.replacedMailboxId = parked.id;
      parked.attached = false;
      reserve.attached = true;
      out.swaps.push({ parkedId: parked.id, reserveId: reserve.id });
      note(reserve.m, 'mailbox.swapped_in', { from: 'reserve', replaced_mailbox_id: parked.id, replaced_address: parked.m.address, ramp_start_cap: reserve.m.rampStartCap });
    }
  }

  for (const s of state.values()) {
    s.dailyCap = capFor(s.status, dayInStatus(s.statusSince, day), s.m.rampStartCap, s.m.ruleCap);
    out.next.push({ id: s.id, status: s.status, statusSince: s.statusSince, dailyCap: s.dailyCap, parkReason: s.parkReason, parkedAt: s.parkedAt, replacedMailboxId: s.replacedMailboxId });
  }
  return out;
}
