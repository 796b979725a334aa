// Extracts the return date named in an absence notice, so follow-ups can be
// scheduled after it. Works on accent-stripped lower-case text.

const MONTHS: Record<string, number> = {};
const MONTH_NAMES: [number, string[]][] = [
  [1, ['january', 'jan', 'januar', 'janner', 'janvier', 'januari', 'enero']],
  [2, ['february', 'feb', 'februar', 'fevrier', 'februari', 'febrero']],
  [3, ['march', 'mar', 'marz', 'maerz', 'mars', 'maart', 'marzo', 'mrt']],
  [4, ['april', 'apr', 'avril', 'abril']],
  [5, ['may', 'mai', 'mei', 'mayo']],
  [6, ['june', 'jun', 'juni', 'juin', 'junio']],
  [7, ['july', 'jul', 'juli', 'juillet', 'julio']],
  [8, ['august', 'aug', 'aout', 'augustus', 'agosto']],
  [9, ['september', 'sep', 'sept', 'septembre', 'septiembre', 'setiembre']],
  [10, ['october', 'oct', 'oktober', 'okt', 'octobre', 'octubre']],
  [11, ['november', 'nov', 'novembre', 'noviembre']],
  [12, ['december', 'dec', 'dezember', 'dez', 'decembre', 'diciembre']],
];
for (const [n, names] of MONTH_NAMES) for (const name of names) MONTHS[name] = n;
const M = `(${Object.keys(MONTHS).sort((a, b) => b.length - a.length).join('|')})`;

const WEEKDAYS: [number, string[]][] = [
  [0, ['sunday', 'sonntag', 'dimanche', 'zondag', 'domingo']],
  [1, ['monday', 'montag', 'lundi', 'maandag', 'lunes']],
  [2, ['tuesday', 'dienstag', 'mardi', 'dinsdag', 'martes']],
  [3, ['wednesday', 'mittwoch', 'mercredi', 'woensdag', 'miercoles']],
  [4, ['thursday', 'donnerstag', 'jeudi', 'donderdag', 'jueves']],
  [5, ['friday', 'freitag', 'vendredi', 'vrijdag', 'viernes']],
];
const WD: Record<string, number> = {};
for (const [n, names] of WEEKDAYS) for (const name of names) WD[name] = n;
const W = `(${Object.keys(WD).join('|')})`;

// Keywords that precede the date. "return" phrases name the first day back and
// are preferred over "until" phrases, which name the last day away.
const RETURN_KW =
  /\b(back|return|returning|retour|terug|zuruck|wieder|ab dem|ab|vanaf|volvere|regreso|regresare|reincorporo)\b/g;
const UNTIL_KW =
  /\b(until|till|til|through|thru|bis|jusqu'?(au|a|en)|tot( en met)?|t\/m|hasta)\b|\bjusqu/g;

// Compiled once; all global because they are used with matchAll.
const RE_ISO = /\b(\d{4})-(\d{2})-(\d{2})\b/g;
const RE_DAY_MONTH = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th|er|e)?\\.?\\s+(?:de\\s+)?${M}\\b\\.?(?:,?\\s+(?:de\\s+)?(\\d{4}))?`, 'g');
const RE_MONTH_DAY = new RegExp(`\\b${M}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?:,?\\s+(\\d{4}))?`, 'g');
const RE_DOTTED = /\b(\d{1,2})\.(\d{1,2})\.(\d{2,4})?(?!\d)/g;
const RE_SLASH = /\b(\d{1,2})\/(\d{1,2})(?:\/(\d{2,4}))?\b/g;
const RE_NTH = /\bthe (\d{1,2})(st|nd|rd|th)\b/g;
const RE_WEEKDAY = new RegExp(`\\b${W}\\b`, 'g');
const RE_MONTH_AHEAD = new RegExp(`^,?\\s*(de\\s+)?${M}`);

interface Found { index: number; y?: number; m: number; d?: number; weekday?: number }

function year(y: string | undefined): number | undefined {
  if (!y) return undefined;
  const n = Number(y);
  return n < 100 ? 2000 + n : n;
}

function findDates(t: string): Found[] {
  const out: Found[] = [];
  const push = (index: number, m: number, d: number | undefined, y?: number) => out.push({ index, m, d, y });
  for (const x of t.matchAll(RE_ISO)) push(x.index!, +x[2], +x[3], +x[1]);
  for (const x of t.matchAll(RE_DAY_MONTH))
    push(x.index!, MONTHS[x[2]], +x[1], year(x[3]));
  for (const x of t.matchAll(RE_MONTH_DAY))
    push(x.index!, MONTHS[x[1]], +x[2], year(x[3]));
  // Dotted numerals are day-first everywhere they are used (DE/NL/FR).
  for (const x of t.matchAll(RE_DOTTED)) push(x.index!, +x[2], +x[1], year(x[3]));
  // Slashes: day-first when unambiguous (14/03), otherwise US month-first (3/14, 04/07).
  for (const x of t.matchAll(RE_SLASH)) {
    const a = +x[1], b = +x[2];
    if (a > 12) push(x.index!, b, a, year(x[3]));
    else push(x.index!, a, b, year(x[3]));
  }
  for (const x of t.matchAll(RE_NTH)) out.push({ index: x.index!, m: 0, d: +x[1] });
  for (const x of t.matchAll(RE_WEEKDAY)) {
    // Only a bare weekday ("back Thursday"); a weekday followed by a date is handled above.
    const after = t.slice(x.index! + x[0].length, x.index! + x[0].length + 12);
    if (/^,?\s*(the\s+)?\d/.test(after) || RE_MONTH_AHEAD.test(after)) continue;
    out.push({ index: x.index!, m: 0, weekday: WD[x[1]] });
  }
  return out.sort((a, b) => a.index - b.index);
}

function kindOf(t: string, index: number): 'return' | 'until' | null {
  let prefix = t.slice(Math.max(0, index - 40), index);
  const stop = Math.max(prefix.lastIndexOf('. '), prefix.lastIndexOf('\n'), prefix.lastIndexOf('!'), prefix.lastIndexOf('?'));
  if (stop >= 0) prefix = prefix.slice(stop + 1);
  let best: { at: number; kind: 'return' | 'until' } | null = null;
  for (const [re, kind] of [[RETURN_KW, 'return'], [UNTIL_KW, 'until']] as const) {
    for (const m of prefix.matchAll(re)) if (!best || m.index! > best.at) best = { at: m.index!, kind };
  }
  return best?.kind ?? null;
}

const iso = (d: Date) => d.toISOString().slice(0, 10);
const utc = (y: number, m: number, d: number) => {
  const dt = new Date(Date.UTC(y, m - 1, d));
  return dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d ? dt : null;
};

function resolve(f: Found, now: Date): string | null {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  if (f.weekday !== undefined) {
    const diff = ((f.weekday - new Date(today).getUTCDay() + 7) % 7) || 7;
    return iso(new Date(today + diff * 86_400_000));
  }
  if (f.d === undefined) return null;
  if (f.m === 0) {
    // "back on the 24th": this month unless that day already passed.
    let y = now.getUTCFullYear(), m = now.getUTCMonth() + 1;
    if (f.d < now.getUTCDate()) (m = m === 12 ? 1 : m + 1), (y = m === 1 ? y + 1 : y);
    const dt = utc(y, m, f.d);
    return dt ? iso(dt) : null;
  }
  if (f.y !== undefined) {
    const dt = utc(f.y, f.m, f.d);
    return dt ? iso(dt) : null;
  }
  // No year: the next occurrence, with a week's grace for notices left on too long.
  let dt = utc(now.getUTCFullYear(), f.m, f.d);
  if (dt && dt.getTime() < today - 7 * 86_400_000) dt = utc(now.getUTCFullYear() + 1, f.m, f.d);
  return dt ? iso(dt) : null;
}

export function detectReturnDate(text: string, now: Date = new Date()): string | null {
  const t = (text ?? '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\s+/g, ' ');
  const dates = findDates(t);
  let until: string | null = null;
  for (const f of dates) {
    const kind = kindOf(t, f.index);
    if (!kind) continue;
    const iso = resolve(f, now);
    if (!iso) continue;
    if (kind === 'return') return iso;
    until ??= iso;
  }
  return until;
}
