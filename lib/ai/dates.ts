// Calendar helpers for drafts. Everything works on UTC calendar dates so the same
// ctx.now yields the same slots on any machine/Worker region; the lead's own
// time zone is unknown, so drafts say "your time" instead of guessing one.
// Names of days and months come from Intl.DateTimeFormat in the draft's language.

import { LOCALE, type Lang } from './lang';

const DAY_MS = 86_400_000;
// 22 November 2026 is a Sunday: index i of these lists is getUTCDay() === i.
const SUNDAY = Date.UTC(2026, 10, 22);

/** Weekday names (Sunday first) in a language, as Intl spells them. */
export function weekdayNames(lang: Lang, style: 'long' | 'short' = 'long'): string[] {
  const f = new Intl.DateTimeFormat(LOCALE[lang], { weekday: style, timeZone: 'UTC' });
  return Array.from({ length: 7 }, (_, i) => f.format(new Date(SUNDAY + i * DAY_MS)));
}

const MONTH_NAMES = new Map<Lang, string[]>();

/** Month names (January first) in a language, as Intl spells them. */
export function monthNames(lang: Lang): string[] {
  let names = MONTH_NAMES.get(lang);
  if (!names) {
    const f = new Intl.DateTimeFormat(LOCALE[lang], { month: 'long', timeZone: 'UTC' });
    MONTH_NAMES.set(lang, (names = Array.from({ length: 12 }, (_, m) => f.format(new Date(Date.UTC(2026, m, 15))))));
  }
  return names;
}

export const WEEKDAYS = weekdayNames('en');
export const MONTHS = monthNames('en');

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

const DAY_FORMAT = new Map<Lang, Intl.DateTimeFormat>();

/** "Tuesday 24 November", "Dienstag, 24. November", "mardi 24 novembre", "martes, 24 de noviembre", "dinsdag 24 november". */
export function formatDay(d: Date, lang: Lang = 'en'): string {
  let f = DAY_FORMAT.get(lang);
  if (!f) DAY_FORMAT.set(lang, (f = new Intl.DateTimeFormat(LOCALE[lang], { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' })));
  return f.format(d);
}

/** "January", "Januar", "janvier", "enero", "januari". */
export function formatMonth(month: number, lang: Lang = 'en'): string {
  return monthNames(lang)[month];
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

/** The word between a day and a time: "Tuesday 24 November at 14:00", "Dienstag, 24. November um 14:00". */
export const AT: Record<Lang, string> = { en: 'at', de: 'um', fr: 'à', es: 'a las', nl: 'om' };

export function formatSlot(s: Slot, lang: Lang = 'en'): string {
  return `${formatDay(s.day, lang)} ${AT[lang]} ${formatTime(s.minutes)}`;
}

const LISTS = new Map<string, Intl.ListFormat>();
function list(lang: Lang, type: 'disjunction' | 'conjunction'): Intl.ListFormat {
  let f = LISTS.get(lang + type);
  if (!f) LISTS.set(lang + type, (f = new Intl.ListFormat(LOCALE[lang], { type })));
  return f;
}

/** "A, B or C" in the language (Intl.ListFormat). */
export function joinOr(items: string[], lang: Lang = 'en'): string {
  return list(lang, 'disjunction').format(items);
}

export function joinAnd(items: string[], lang: Lang = 'en'): string {
  return list(lang, 'conjunction').format(items);
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
