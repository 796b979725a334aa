// Calendar helpers for drafts. Everything works on UTC calendar dates so the same
// ctx.now yields the same slots on any machine/Worker region; the lead's own
// time zone is unknown, so drafts say "your time" instead of guessing one.

const DAY_MS = 86_400_000;
export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
export const MONTHS = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
];

export function utcDay(d: Date): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
}

export function addDays(d: Date, n: number): Date {
  return new Date(d.getTime() + n * DAY_MS);
}

export function isBusinessDay(d: Date): boolean {
  const w = d.getUTCDay();
  return w !== 0 && w !== 6;
}

/** First business day on or after `d`. */
export function onOrAfterBusinessDay(d: Date): Date {
  let x = utcDay(d);
  while (!isBusinessDay(x)) x = addDays(x, 1);
  return x;
}

/** "Tuesday 24 November" */
export function formatDay(d: Date): string {
  return `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}

export function formatTime(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

export function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export function parseIsoDate(s: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s.trim());
  if (!m) return null;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return Number.isNaN(d.getTime()) ? null : d;
}

export interface Slot { day: Date; minutes: number }

export function formatSlot(s: Slot): string {
  return `${formatDay(s.day)} at ${formatTime(s.minutes)}`;
}

/** "A, B or C" */
export function joinOr(items: string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

export function joinAnd(items: string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

export type DayPart = 'morning' | 'afternoon' | null;

const TIMES: Record<'any' | 'morning' | 'afternoon', number[]> = {
  // Staggered so three proposals don't all land at the same hour.
  any: [10 * 60, 14 * 60, 11 * 60 + 30],
  morning: [9 * 60 + 30, 11 * 60, 10 * 60],
  afternoon: [14 * 60, 15 * 60 + 30, 16 * 60 + 30],
};

export interface SlotPrefs {
  count: number;
  dayPart: DayPart;
  /** Weekdays (0-6) the lead named; slots are restricted to them when present. */
  weekdays: number[];
  /** Weekdays (0-6) the lead ruled out. */
  blocked?: number[];
  /** Lead said "next week": skip the rest of this week. */
  nextWeek: boolean;
  /** No slot before this day (the lead is away until then). */
  notBefore?: Date | null;
  /** ISO dates already offered in earlier outbound messages, not offered again. */
  avoid: Set<string>;
}

export function proposeSlots(now: Date, p: SlotPrefs): Slot[] {
  const times = TIMES[p.dayPart ?? 'any'];
  let day = addDays(utcDay(now), 1);
  if (p.nextWeek) day = addDays(day, (8 - day.getUTCDay()) % 7);
  if (p.notBefore && p.notBefore > day) day = utcDay(p.notBefore);
  const named = p.weekdays.filter((w) => w >= 1 && w <= 5);
  const slots: Slot[] = [];
  for (let i = 0; i < 60 && slots.length < p.count; i++, day = addDays(day, 1)) {
    if (!isBusinessDay(day) || p.avoid.has(isoDate(day)) || p.blocked?.includes(day.getUTCDay())) continue;
    if (named.length > 0 && !named.includes(day.getUTCDay())) continue;
    if (named.length === 1) {
      // One named day: offer two times on it rather than drifting into later weeks.
      return [{ day, minutes: times[0] }, { day, minutes: times[1] }];
    }
    slots.push({ day, minutes: times[slots.length % times.length] });
  }
  return slots;
}

/** Next date after today falling on `weekday` ("next Tuesday" starts from next Monday). */
export function nextWeekday(now: Date, weekday: number, nextWeek = false): Date {
  let d = addDays(utcDay(now), 1);
  if (nextWeek) d = addDays(d, (8 - d.getUTCDay()) % 7);
  while (d.getUTCDay() !== weekday) d = addDays(d, 1);
  return d;
}

/** A follow-up date in the first working days of a month: avoids 1 January-style holidays. */
export function earlyInMonth(year: number, month: number): Date {
  return onOrAfterBusinessDay(new Date(Date.UTC(year, month, 5)));
}
