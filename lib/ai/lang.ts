// Which language to answer in, and whether to say "Sie" or "du". The prospect's own words decide; short replies
// ("ok", "Vale.") fall back to the rest of the thread, then to the campaign brief, then English. Function-word
// counting is enough for five languages this different, and stays deterministic and offline.

import type { PreviousMessage } from './types';

export type Lang = 'en' | 'de' | 'fr' | 'es' | 'nl';
export const LANGS: readonly Lang[] = ['en', 'de', 'fr', 'es', 'nl'];
export const LOCALE: Record<Lang, string> = { en: 'en-GB', de: 'de-DE', fr: 'fr-FR', es: 'es-ES', nl: 'nl-NL' };

/** "Sie / vous / usted / u" or "du / tu / tú / je". */
export type Register = 'formal' | 'informal';

const WORDS: Record<Lang, string> = {
  en: 'the and you your i we our to for with would will this that is are be it not yes thanks thank please can could what when how who does do me my of on at us send sounds good great sure interested hi hello next week price cost much works work let talk call am',
  de: 'und ich sie ihnen ihr ihre wir uns der die das den dem ist sind mit für gerne gern danke bitte auf nicht kein keine ein eine einen zu von auch noch oder wenn dass hallo würde passt mir mich dich dir du wie was wer wann können kann uhr nächste woche bin habe haben es aber ja nein interesse grüße viele termin gut klingt kosten kostet funktioniert läuft genau schicken',
  fr: 'et je vous nous votre vos notre le la les des du de un une pour avec est sont merci bien pas ne que qui sur dans au aux mon ma mes me bonjour oui non ça ce cette suis peut quand comment combien tu te toi semaine prochaine prix tarif intéressé accord appel avez êtes moi mardi jeudi liste',
  es: 'y el los las usted su sus nuestro gracias para con que por una es muy le les mi me te tu hola del al lo de está estoy si sí cuándo cuando cómo como pero más no podemos puede semana próxima precio cuánto cuesta interesa vale bien tengo tenemos hablar llamada qué quién viene va',
  nl: 'ja en ik u uw we wij ons onze het de een van voor met is zijn dank bedankt graag niet geen dat die dit op naar maar ook nog als je jij jouw hallo wel even om kunnen kunt wat hoe wie wanneer volgende week kost prijs interesse uur prima goed oké leuk bellen klinkt hebben heb ben bent werkt',
};
const SETS = Object.fromEntries(LANGS.map((l) => [l, new Set(WORDS[l].split(' '))])) as Record<Lang, Set<string>>;

/** Function-word score per language (a word several languages share is split between them); characters only one language uses add weight. */
export function languageScores(text: string): Record<Lang, number> {
  const lower = text.toLowerCase();
  const s = { en: 0, de: 0, fr: 0, es: 0, nl: 0 } as Record<Lang, number>;
  for (const tok of lower.match(/[\p{L}]+/gu) ?? []) {
    const owners = LANGS.filter((l) => SETS[l].has(tok));
    for (const l of owners) s[l] += 1 / owners.length;
  }
  if (/[ßäöü]/.test(lower)) s.de += 2;
  if (/[ñ¿¡]/.test(lower)) s.es += 2;
  if (/[çœêèàùâîôû]/.test(lower)) s.fr += 1;
  if (/\b\p{L}*ij\p{L}*\b/u.test(lower)) s.nl += 1;
  if (/\b(i'm|i'll|i'd|don't|can't|let's|it's|we're)\b/.test(lower)) s.en += 2;
  if (/\b(c'est|j'ai|d'accord|qu'|n'est|s'il)/.test(lower)) s.fr += 2;
  return s;
}

/** The clear winner, or null when the text is too short or mixed to tell. */
export function detectLanguage(text: string | null | undefined): Lang | null {
  if (!text?.trim()) return null;
  const s = languageScores(text);
  const ranked = [...LANGS].sort((a, b) => s[b] - s[a]);
  return s[ranked[0]] >= 1 && s[ranked[0]] > s[ranked[1]] + 0.25 ? ranked[0] : null;
}

export function chooseLanguage(reply: string, previous: PreviousMessage[] | null | undefined, context: string | null | undefined): Lang {
  const msgs = (previous ?? []).slice(-10);
  const theirs = msgs.filter((m) => m.role === 'reply').map((m) => m.content).reverse();
  const ours = msgs.filter((m) => m.role === 'outbound').map((m) => m.content).reverse();
  for (const text of [reply, ...theirs, ...ours, context]) {
    const lang = detectLanguage(text);
    if (lang) return lang;
  }
  return 'en';
}

// Whole words only, with Unicode boundaries: "coûte" must not read as "te".
const words = (list: string, flags = 'iu') => new RegExp(`(?<![\\p{L}'’])(?:${list})(?![\\p{L}])`, flags);
const INFORMAL: Partial<Record<Lang, RegExp>> = {
  de: words('du|dich|dir|dein|deine|deinen|deiner|hast du|kannst du|bist du'),
  fr: words("tu|toi|ton|ta|tes|te|t'"),
  es: words('tú|ti|tienes|puedes|quieres|vienes|escríbeme|escribeme|mándame|mandame|llámame|llamame|dime|te|tu|tus'),
  nl: words('je|jij|jou|jouw'),
};
const FORMAL: Partial<Record<Lang, RegExp>> = {
  de: words('Ihnen|Ihr|Ihre|Ihren|Ihrem|Ihrer', 'u'),
  fr: words('vous|votre|vos'),
  es: words('usted|ustedes'),
  nl: words('u|uw'),
};

/**
 * Formal unless the tone asks for casual or the thread is informal: the prospect's reply decides, and when it
 * shows neither form, their earlier replies and then our own earlier messages do.
 */
export function registerFor(lang: Lang, tone: string | null | undefined, texts: string[]): Register {
  const t = (tone ?? '').toLowerCase();
  if (/(formal|polite|respectful|courteous|corporate)/.test(t)) return 'formal';
  if (/(casual|relaxed|informal|chill|laid[- ]back)/.test(t)) return 'informal';
  for (const text of texts) {
    // German "Sie" is formal only mid-sentence; at a sentence start it may be "she"/"they".
    const formal = (FORMAL[lang]?.test(text) ?? false) || (lang === 'de' && /(?<![.!?]\s|^)\bSie\b/.test(text));
    const informal = INFORMAL[lang]?.test(text) ?? false;
    if (formal !== informal) return formal ? 'formal' : 'informal';
  }
  return 'formal';
}
