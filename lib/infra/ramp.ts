// The mailbox ramp (agency-tools-and-bridge.md §8, agency-operator.md §4): warming 14 days, then ramping at 10 a day
// (5 after an unpark) for a week and 20 a day the next, then active at the domain rule's cap. One function, so the
// daily tick, get_mailbox_lifecycle and the benchmark agree on what a mailbox may send.
import type { MailboxStatus } from '../../schema';

export const WARMING_DAYS = 14;
export const RAMP_WEEK2_CAP = 20;
export const RAMP_DAYS = 14;
export const UNPARK_START_CAP = 5;
export const NORMAL_START_CAP = 10;

/** Day 1 is the day the status began. */
export function dayInStatus(statusSince: string, today: string): number {
  return Math.floor((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${statusSince}T00:00:00Z`)) / 86_400_000) + 1;
}

/** What a mailbox may send to prospects on its `day` in `status` (warm-up mail is not counted). */
export function capFor(status: MailboxStatus, day: number, rampStartCap: number, ruleCap: number): number {
  if (status === 'active') return ruleCap;
  if (status !== 'ramping') return 0;
  const cap = day <= 7 ? rampStartCap : RAMP_WEEK2_CAP;
  return Math.min(cap, ruleCap);
}
