// What "failing" means for a mailbox (agency-operator.md §4) and the unpark line (agency-tools-and-bridge.md §3), in
// one place: the daily tick parks by it, get_mailbox_lifecycle and the snapshot show it, unpark_mailbox refuses by it.

/** A 7-day bounce rate at or above this is failing. */
export const FAILING_BOUNCE_RATE = 0.03;
/** unpark_mailbox needs the 7-day bounce rate under this (and the domain not listed). */
export const UNPARK_MAX_BOUNCE_RATE = 0.02;
/** The window of the bounce rate, in days, ending with the last day the health port reported. */
export const HEALTH_WINDOW_DAYS = 7;

export type ParkReason = 'bounce_rate' | 'domain_listed' | 'disconnected';

export type HealthState = { bounceRate7d: number; connected: boolean; domainListed: boolean };

export const isFailing = (h: HealthState) => h.bounceRate7d >= FAILING_BOUNCE_RATE || !h.connected || h.domainListed;

/** The first reason that applies: a listed domain or a lost connection explain more than the rate they cause. */
export function parkReasonOf(h: HealthState): ParkReason | null {
  if (h.domainListed) return 'domain_listed';
  if (!h.connected) return 'disconnected';
  if (h.bounceRate7d >= FAILING_BOUNCE_RATE) return 'bounce_rate';
  return null;
}

/** Bounced over sent (0 when nothing was sent: a parked mailbox's rate falls to 0 after a week without sending). */
export const bounceRate = (sent: number, bounced: number) => (sent > 0 ? bounced / sent : 0);

/** For answers: 4 decimals (0.0312 = 3.12 %); decisions use the unrounded rate. */
export const shownRate = (rate: number) => Math.round(rate * 10_000) / 10_000;

/** YYYY-MM-DD plus `n` days (negative: back), on the calendar, not the clock. */
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
