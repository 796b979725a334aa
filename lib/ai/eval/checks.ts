// Machine checks for the suggestion evaluation (npm run eval:suggest). Deliberately independent of the engine:
// the language check counts its own function words rather than calling lib/ai/lang.ts, so an engine that
// mislabels its own language cannot pass by agreeing with itself.

export type EvalLang = 'en' | 'de' | 'fr' | 'es' | 'nl';

// Function words that belong to one of the five languages only (shared ones like "de", "en", "die", "la", "je"
// are left out on purpose).
const WORDS: Record<EvalLang, string[]> = {
  en: 'the and you your i we our to for with would will this that are be it thanks thank happy just what if of at my let know can could here best hi there from about when once back'.split(' '),
  de: 'und ich sie ihnen ihr ihre wir uns unser der das den dem ist sind mit für gerne gern danke vielen bitte auf nicht kein keine ein eine einen zu von auch noch oder wenn dass grüße viele hallo würde passt mir mich dich dir bei wie gut freue'.split(' '),
  fr: 'et vous nous votre vos notre des pour avec sont merci bien pas ne qui sur dans au aux mon mes cordialement bonjour très plaisir serait ça cette ce je suis vers'.split(' '),
  es: 'y el los las usted su sus nuestro nuestra nosotros gracias para con por muy mi hola saludo saludos del lo está pero más cuando le les hoy nos'.split(' '),
  nl: 'ik uw wij ons onze het een van voor met zijn dank bedankt graag niet geen dat dit op naar maar ook nog als jij jouw groet vriendelijke hallo beste wel even om hoor jullie'.split(' '),
};
const SETS = Object.fromEntries(Object.entries(WORDS).map(([k, v]) => [k, new Set(v)])) as Record<EvalLang, Set<string>>;

export function languageCounts(text: string): Record<EvalLang, number> {
  const tokens = text.toLowerCase().match(/[\p{L}]+/gu) ?? [];
  const out = { en: 0, de: 0, fr: 0, es: 0, nl: 0 } as Record<EvalLang, number>;
  for (const t of tokens) for (const l of Object.keys(SETS) as EvalLang[]) if (SETS[l].has(t)) out[l]++;
  return out;
}

/** The draft is written in `lang`: it leads the count and no other language is mixed in noticeably. */
export function isInLanguage(text: string, lang: EvalLang): { ok: boolean; detail: string } {
  const c = languageCounts(text);
  const own = c[lang];
  const others = (Object.keys(c) as EvalLang[]).filter((l) => l !== lang);
  const beaten = others.filter((l) => c[l] >= own);
  const mixed = others.filter((l) => c[l] >= 3 && c[l] >= own * 0.3);
  const detail = Object.entries(c).map(([l, n]) => `${l}=${n}`).join(' ');
  return { ok: own > 0 && beaten.length === 0 && mixed.length === 0, detail };
}

const LOCALE: Record<EvalLang, string> = { en: 'en-GB', de: 'de-DE', fr: 'fr-FR', es: 'es-ES', nl: 'nl-NL' };

function weekdayNames(lang: EvalLang): string[] {
  const f = new Intl.DateTimeFormat(LOCALE[lang], { weekday: 'long', timeZone: 'UTC' });
  return Array.from({ length: 7 }, (_, i) => f.format(new Date(Date.UTC(2026, 10, 22 + i))).toLowerCase());
}

const TIME_RE = /\b([01]?\d|2[0-3])(?:[:.h]\s?([0-5]\d)|\s?(?:uhr|h|uur)\b)|\b(1[0-2]|0?[1-9])\s?(am|pm)\b/gi;

function timesIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(TIME_RE)) {
    let h = Number(m[1] ?? m[3]);
    const min = m[2] ? Number(m[2]) : 0;
    if (m[4]?.toLowerCase() === 'pm' && h < 12) h += 12;
    out.push(`${String(h).padStart(2, '0')}:${String(min).padStart(2, '0')}`);
  }
  return out;
}

/** The proposed slot (`2026-11-24T14:00`) is confirmed: its weekday, day and time appear, and no other day or time. */
export function keepsTime(text: string, slot: string, lang: EvalLang): { ok: boolean; detail: string } {
  const [date, time] = slot.split('T');
  const d = new Date(`${date}T00:00:00Z`);
  const lower = text.toLowerCase();
  const word = (n: string) => new RegExp(`(^|[^\\p{L}])${n}([^\\p{L}]|$)`, 'u').test(lower);
  const names = weekdayNames(lang);
  const wanted = names[d.getUTCDay()]; // names[0] is Sunday
  const otherDays = names.filter((n) => n !== wanted && word(n));
  const times = [...new Set(timesIn(text))];
  const hasDay = word(wanted) && new RegExp(`\\b${d.getUTCDate()}\\b`).test(text);
  const ok = hasDay && times.includes(time) && times.length === 1 && otherDays.length === 0;
  return { ok, detail: `day=${hasDay} times=[${times.join(',')}] other_days=[${otherDays.join(',')}]` };
}

const AMOUNT_RE = /[$€£]\s?\d|\d[\d.,]*\s?(?:k\s?)?(?:€|eur\b|euros?\b|usd\b|\$|£)/i;

export function hasAmount(text: string): boolean {
  return AMOUNT_RE.test(text);
}

export function quotesAmount(text: string, amount: string): boolean {
  return text.replace(/\s/g, '').includes(amount.replace(/\s/g, ''));
}

// Valedictions that close a message on their own ("Best,", "Viele Grüße") and well-wishes that close it too
// ("All the best with everything at Acme."), in the five languages. "Talk soon"-style lines are not counted:
// people put them above a sign-off all the time.
const VALEDICTION = /^(best|best regards|kind regards|warm regards|regards|cheers|many thanks|thanks|thank you|sincerely|viele grüße|beste grüße|freundliche grüße|mit freundlichen grüßen|liebe grüße|herzliche grüße|gruß|cordialement|bien cordialement|bien à vous|un saludo|saludos|saludos cordiales|un cordial saludo|atentamente|un abrazo|met vriendelijke groet|vriendelijke groet|hartelijke groet|groeten|groet)[,.!]?$/i;
const WELL_WISH = /^(all the best|best wishes|wishing you|alles gute|viel erfolg|ich wünsche ihnen|bonne continuation|bonne journée|belle journée|je vous souhaite|mucho éxito|todo lo mejor|le deseo|te deseo|veel succes|alle goeds|ik wens u)\b/i;

/** Closing formulas among the message's last lines and last paragraph's sentences: more than one is a doubled closing. */
export function closingCount(text: string): number {
  const paras = text.trim().split(/\n\s*\n/);
  const tail = paras.slice(-2).join('\n');
  const segments = tail.split(/\n|(?<=[.!?])\s+/).map((s) => s.trim()).filter(Boolean);
  return segments.filter((s) => VALEDICTION.test(s) || WELL_WISH.test(s)).length;
}

export function hasPlaceholder(text: string): boolean {
  return /\[[^\]]{0,40}\]|\{[^}]{0,40}\}|\bundefined\b|\bnull\b/i.test(text);
}

export function lastLine(text: string): string {
  const lines = text.trim().split('\n').map((l) => l.trim()).filter(Boolean);
  return lines[lines.length - 1] ?? '';
}

export function hasSlot(text: string): boolean {
  return timesIn(text).length > 0;
}

export const LENGTH: Record<'email' | 'linkedin' | 'whatsapp', [number, number]> = {
  email: [60, 1000],
  linkedin: [30, 400],
  whatsapp: [20, 300],
};
