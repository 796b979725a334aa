// The price stated in a campaign brief, as data: "Pricing starts at $2,500/month", "Preis: ab 1.200 € pro Monat",
// "à partir de 900 € par mois", "desde 600 € al mes", "vanaf €750 per maand". Kept as amount + period + "from"
// so a draft in any of the five languages can state it, whatever language the brief was written in. The amount
// is copied exactly as written: a price is never reformatted, rounded or converted.

import { fold } from './when';

export type Per = 'month' | 'year' | 'user' | 'meeting' | 'lead' | 'hour';

export interface Price {
  /** As written in the brief: "$2,500", "1.200 €", "490 EUR". */
  amount: string;
  per: Per | null;
  /** "from", "starts at", "ab", "à partir de", "desde", "vanaf". */
  from: boolean;
}

const AMOUNT = /(?:[$€£]\s?\d[\d.,]*\d(?:\s?k)?|[$€£]\s?\d(?:\s?k)?|\d[\d.,]*(?:\s?k)?\s?(?:€|EUR|USD|GBP|CHF|\$|£|euros?|dollars?)(?![\p{L}]))/iu;
const FROM = /(from|starting at|starts at|start at|starting from|ab|a partir de|des|desde|vanaf|beginnend bij|vanaf slechts)\s*$/;
const PER: Array<[RegExp, Per]> = [
  [/^(month|mo|monat|mois|mes|maand)\b/, 'month'],
  [/^(year|yr|jahr|an|annee|ano|jaar)\b/, 'year'],
  [/^(seat|user|nutzer|benutzer|utilisateur|usuario|gebruiker)\b/, 'user'],
  [/^(meeting|termin|rendez-vous|reunion|cita|afspraak)\b/, 'meeting'],
  [/^(lead)\b/, 'lead'],
  [/^(hour|stunde|heure|hora|uur)\b/, 'hour'],
];

export function parsePrice(sentence: string): Price | null {
  const m = AMOUNT.exec(sentence);
  if (!m) return null;
  const amount = m[0].trim();
  const before = fold(sentence.slice(0, m.index));
  const after = fold(sentence.slice(m.index! + m[0].length)).replace(/^\s*(?:\/|per|pro|par|al|por|a|an|each|the|im|le|el|de)\s*/, '').replace(/^(?:the|le|el)\s+/, '');
  const per = PER.find(([re]) => re.test(after))?.[1] ?? null;
  return { amount, per, from: FROM.test(before) || /\b(starts at|starting at|from)\b/.test(before.slice(-30)) };
}

/** "No long-term contract" and its equivalents: worth saying in a price answer when the brief says it. */
export const NO_CONTRACT = /\b(no (long-term |long term |minimum )?(contract|commitment|lock-?in)|cancel (any ?time|monthly)|month-to-month|monthly rolling|monatlich kundbar|keine (mindest)?laufzeit|ohne (lange )?(vertrags)?bindung|sans engagement|resiliable a tout moment|sin permanencia|sin compromiso|maandelijks opzegbaar|geen (vaste )?looptijd)\b/;
