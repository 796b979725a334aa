// Calendar arithmetic on plain days (YYYY-MM-DD) in the organization's timezone. Days are handled as UTC dates so
// that weekday and month lengths never depend on the server's zone or on daylight saving time.

export type Day = string;

const DAY_MS = 86_400_000;

export const dayNumber = (d: Day) => Date.parse(`${d}T00:00:00Z`) / DAY_MS;
export const dayOf = (n: number): Day => new Date(n * DAY_MS).toISOString().slice(0, 10);
export const addDays = (d: Day, n: number) => dayOf(dayNumber(d) + n);

/** Monday to Friday (no public holidays: the service knows none per country). */
export const isWorkday = (d: Day) => {
  const w = new Date(dayNumber(d) * DAY_MS).getUTCDay();
  return w !== 0 && w !== 6;
};

/** Workdays in [from, to): whole weeks counted at once, the rest day by day. */
export function workdaysBetween(from: Day, to: Day): number {
  const a = dayNumber(from);
  const b = dayNumber(to);
  if (b <= a) return 0;
  const weeks = Math.floor((b - a) / 7);
  let n = weeks * 5;
  for (let x = a + weeks * 7; x < b; x++) if (isWorkday(dayOf(x))) n++;
  return n;
}

export const daysBetween = (from: Day, to: Day) => Math.max(0, dayNumber(to) - dayNumber(from));

export const monthStart = (d: Day): Day => `${d.slice(0, 7)}-01`;
export function nextMonthStart(d: Day): Day {
  const y = Number(d.slice(0, 4));
  const m = Number(d.slice(5, 7));
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
}

/** The calendar day of an instant in an IANA zone. */
export function dayIn(timeZone: string, at: Date): Day {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  } catch {
    return at.toISOString().slice(0, 10);
  }
}

/** How far the zone's wall clock is ahead of UTC at an instant, in milliseconds. */
function offsetAt(timeZone: string, at: Date): number {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(at);
  } catch {
    return 0;
  }
  const v = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  const wall = Date.UTC(v('year'), v('month') - 1, v('day'), v('hour'), v('minute'), v('second'));
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}

/**
 * The instant a day begins in a zone. Checked twice because the offset at UTC midnight can differ from the one at
 * local midnight when a DST change falls in between.
 */
export function startOfDay(timeZone: string, d: Day): Date {
  const utc = dayNumber(d) * DAY_MS;
  let t = utc - offsetAt(timeZone, new Date(utc));
  t = utc - offsetAt(timeZone, new Date(t));
  return new Date(t);
}
