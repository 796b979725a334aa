// Reads days and times out of a prospect's words in English, German, French, Spanish and Dutch:
// "next Tuesday at 2pm", "nächste Woche Dienstag um 14 Uhr", "mardi à 15h", "el jueves a las 10",
// "donderdag om 11 uur", "am 1. Dezember", "half twaalf". Day and month names come from Intl; the
// connecting words are listed here. Works on accent-stripped lower-case text.

import { addDays, monthNames, nextWeekday, utcDay, weekdayNames, type DayPart, type Slot } from './dates';
import { LANGS } from './lang';

export function fold(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[\u2018\u2019`´]/g, "'");
}

const WEEKDAY: Record<string, number> = { mon: 1, tue: 2, tues: 2, wed: 3, thu: 4, thur: 4, thurs: 4, fri: 5 };
const MONTH: Record<string, number> = { sept: 8 };
for (const lang of LANGS) {
  weekdayNames(lang).forEach((n, i) => (WEEKDAY[fold(n)] = i));
  monthNames(lang).forEach((n, i) => (MONTH[fold(n)] = i));
}
const WD = `(${Object.keys(WEEKDAY).sort((a, b) => b.length - a.length).join('|')})`;
const MO = `(${Object.keys(MONTH).sort((a, b) => b.length - a.length).join('|')})`;
const DAY_MONTH = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th|er|e)?\\.?\\s+(?:de\\s+)?${MO}\\b`, 'g');
const MONTH_DAY = new RegExp(`\\b${MO}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?!:)`, 'g');
const WEEKDAY_DAY = new RegExp(`\\b${WD},?\\s+(?:the\\s+|den\\s+|le\\s+|el\\s+)?(\\d{1,2})(?:st|nd|rd|th|er|e)?\\b(?![:.h]?\\d|\\s*(?:uhr|h|uur|am|pm)\\b)`, 'g');
const WEEKDAY_WORD = new RegExp(`\\b${WD}\\b`, 'g');

const NEXT_WEEK = /\b(next week|nachste woche|kommende woche|la semaine prochaine|semaine prochaine|la semana que viene|la proxima semana|la semana proxima|volgende week|komende week)\b/;
const TOMORROW = /\b(tomorrow|demain|pasado manana|(?<!(?:la|de|por|'s) )manana|ubermorgen|overmorgen|(?<!(?:'s|guten) )morgen(?!s))\b/;
// A clause that rules its day out: "I'm out Thursday", "Montag geht leider nicht", "el lunes no puedo".
const NEGATED = /\b(not|can'?t|cannot|won'?t|out|off|away|busy|unavailable|travell?ing|except|nicht|kein\w*|unterwegs|verhindert|pas|impossible|indisponible|absente?|no|imposible|fuera|niet|geen|afwezig)\b/;
const CLAUSE = /[,.;!?]|\b(but|however|aber|sondern|mais|pero|sino|maar)\b/;

export interface When {
  /** Weekdays named positively (0-6), in order of mention. */
  weekdays: number[];
  blockedWeekdays: number[];
  /** An explicit calendar date ("1 December", "lunes 30"), when one was named. */
  date: Date | null;
  nextWeek: boolean;
  /** Minutes after midnight of a clock time, when one was named. */
  time: number | null;
  dayPart: DayPart;
}

function resolveDate(now: Date, day: number, month: number | null): Date | null {
  const today = utcDay(now);
  let m = month ?? today.getUTCMonth();
  let y = today.getUTCFullYear();
  let d = new Date(Date.UTC(y, m, day));
  if (month === null && d < today) d = new Date(Date.UTC(y, (m = m + 1), day));
  if (month !== null && d.getTime() < today.getTime() - 7 * 86_400_000) d = new Date(Date.UTC((y = y + 1), m, day));
  return d.getUTCDate() === day ? d : null;
}

/** Calendar dates: "1 December", "1. Dezember", "3 de diciembre", "December 3rd", "24.11.", "lunes 30". */
export function findDates(t: string, now: Date): Array<{ date: Date; index: number; end: number }> {
  const out: Array<{ date: Date; index: number; end: number }> = [];
  const push = (m: RegExpMatchArray, day: number, month: number | null) => {
    const date = resolveDate(now, day, month);
    if (date && !out.some((o) => o.index <= m.index! && m.index! < o.end)) out.push({ date, index: m.index!, end: m.index! + m[0].length });
  };
  for (const m of t.matchAll(DAY_MONTH)) push(m, +m[1], MONTH[m[2]]);
  for (const m of t.matchAll(MONTH_DAY)) push(m, +m[2], MONTH[m[1]]);
  for (const m of t.matchAll(/\b(\d{1,2})\.(\d{1,2})\.(?:\d{2,4})?(?!\d)/g)) if (+m[2] >= 1 && +m[2] <= 12) push(m, +m[1], +m[2] - 1);
  // "lunes 30", "Tuesday the 1st": a weekday with a bare day number.
  for (const m of t.matchAll(WEEKDAY_DAY)) {
    const date = resolveDate(now, +m[2], null);
    if (date && date.getUTCDay() === WEEKDAY[m[1]]) push(m, +m[2], null);
  }
  return out.sort((a, b) => a.index - b.index);
}

const NUMBER_WORD: Record<string, number> = {
  een: 1, twee: 2, drie: 3, vier: 4, vijf: 5, zes: 6, zeven: 7, acht: 8, negen: 9, tien: 10, elf: 11, twaalf: 12,
  eins: 1, zwei: 2, funf: 5, sechs: 6, sieben: 7, neun: 9, zehn: 10, zwolf: 12,
};
const NUM = `(\\d{1,2}|${Object.keys(NUMBER_WORD).join('|')})`;
const num = (s: string) => NUMBER_WORD[s] ?? Number(s);
const HALF = new RegExp(`\\b(?:half|halb)\\s+${NUM}\\b`);

/** A clock time in minutes after midnight; "at 3" / "um 3" in business talk means the afternoon. */
export function parseTime(t: string): number | null {
  const pm = /\b(pm|p\.m\.|de la tarde|de la noche|'s middags|'s avonds|nachmittags|am nachmittag|abends|de l'apres-midi|du soir)\b/.test(t);
  const am = /\b(am|a\.m\.|de la manana|'s ochtends|'s morgens|vormittags|morgens|du matin)\b/.test(t);
  let h: number | null = null;
  let min = 0;
  let m: RegExpMatchArray | null;
  if ((m = HALF.exec(t))) {
    h = num(m[1]) - 1;
    min = 30;
  } else if ((m = /\b(\d{1,2})\s*(?::|\.|h)\s*(\d{2})\b(?!\s*(?:€|eur|\$|%))/.exec(t))) {
    h = +m[1];
    min = +m[2];
  } else if ((m = /\b(\d{1,2})\s*(am|pm|a\.m\.|p\.m\.|uhr|uur|h|heures?|horas?)\b/.exec(t))) {
    h = +m[1];
  } else if ((m = /\b(?:at|@|around|um|gegen|a las|a la|om|vers|rond|sobre las)\s+(\d{1,2})\b(?![\d:.,]|\s*(?:%|people|personen|days?|weeks?|months?|tagen?|wochen|monaten?|jours?|semaines?|mois|dias?|semanas?|meses|dagen|weken|maanden|minut\w*))/.exec(t))) {
    h = +m[1];
  }
  if (h === null) return null;
  if (pm && h < 12) h += 12;
  else if (am && h === 12) h = 0;
  else if (!am && !pm && h < 8) h += 12;
  return h < 24 && min < 60 ? h * 60 + min : null;
}

export function dayPartIn(t: string): DayPart {
  if (/\b(mornings?|before (noon|lunch)|vormittags?|morgens|am vormittag|le matin|dans la matinee|en matinee|por la manana|'s ochtends|in de ochtend|ochtends)\b|\d\s*am\b/.test(t)) return 'morning';
  if (/\b(afternoons?|after lunch|nachmittags?|am nachmittag|l'apres-midi|apres-midi|por la tarde|'s middags|in de middag|middags)\b|\d\s*pm\b/.test(t)) return 'afternoon';
  return null;
}

export function readWhen(text: string, now: Date): When {
  const t = fold(text);
  const dates = findDates(t, now);
  // Dates are read first and blanked, so "1.12." or "3 december" never reads as a clock time.
  let rest = t;
  for (const d of dates) rest = rest.slice(0, d.index) + ' '.repeat(d.end - d.index) + rest.slice(d.end);
  const weekdays: number[] = [];
  const blocked: number[] = [];
  for (const clause of rest.split(CLAUSE).filter((c): c is string => !!c)) {
    const named = [...clause.matchAll(WEEKDAY_WORD)].map((m) => WEEKDAY[m[1]]).filter((d) => d >= 1 && d <= 5);
    const out = NEGATED.test(clause) && parseTime(clause) === null;
    for (const d of named) (out ? blocked : weekdays).push(d);
  }
  if (TOMORROW.test(t)) {
    let d = addDays(utcDay(now), /pasado manana|ubermorgen|overmorgen|apres-demain/.test(t) ? 2 : 1);
    while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d = addDays(d, 1);
    weekdays.push(d.getUTCDay());
  }
  return {
    weekdays: [...new Set(weekdays)].filter((d) => !blocked.includes(d)),
    blockedWeekdays: [...new Set(blocked)],
    date: dates[0]?.date ?? null,
    nextWeek: NEXT_WEEK.test(t),
    time: parseTime(rest),
    dayPart: dayPartIn(t),
  };
}

/** The day a prospect means: an explicit date, else the next occurrence of the one weekday they named. */
export function dayMeant(w: When, now: Date): Date | null {
  if (w.date) return w.date;
  if (w.weekdays.length !== 1) return null;
  return nextWeekday(now, w.weekdays[0], w.nextWeek);
}

/** Slots we offered in an earlier message, in any of the five languages ("Dienstag, 24. November um 14:00"). */
export function offeredSlots(text: string, now: Date): Slot[] {
  const t = fold(text);
  const dates = findDates(t, now);
  const slots: Slot[] = [];
  dates.forEach((d, i) => {
    const upto = i + 1 < dates.length ? dates[i + 1].index : t.length;
    for (const m of t.slice(d.end, upto).matchAll(/\b(\d{1,2})[:.h](\d{2})\b/g)) slots.push({ day: d.date, minutes: +m[1] * 60 + +m[2] });
  });
  return slots;
}

/** The slot among those offered that the prospect picked, by day ("Tuesday works") or by time ("11:30 is perfect"). */
export function pickOffered(w: When, offered: Slot[]): Slot | null {
  const named = w.date !== null || w.weekdays.length > 0;
  const onDay = (s: Slot) => (w.date ? s.day.getTime() === w.date.getTime() : w.weekdays.length === 1 && s.day.getUTCDay() === w.weekdays[0]);
  const byDay = offered.filter(onDay);
  if (w.time !== null) return (named ? byDay : offered).find((s) => s.minutes === w.time) ?? null;
  return byDay[0] ?? null;
}
