// Learning from human edits. Each LearnedExample pairs the draft we proposed with
// what the human actually sent. When a new reply resembles an old one, we replay the
// human's sentence-level edits (drops, additions, rewrites, greeting/sign-off) on the
// new draft. Sentences are compared after masking names, dates and numbers so an
// edit made for "Tom at Acme on Tuesday" still applies to "Jane at Globex on Friday".

import { distance } from 'fastest-levenshtein';
import { splitSentences } from './context';
import { monthNames, weekdayNames } from './dates';
import { LANGS, detectLanguage, type Lang } from './lang';
import type { LearnedExample } from './types';

// Day and month names of all five languages: an edit made on "Dienstag" transfers to a draft about "Freitag".
const CALENDAR_WORDS = [...new Set(LANGS.flatMap((l) => [...weekdayNames(l), ...monthNames(l)]))].sort((a, b) => b.length - a.length);

const STOP = new Set('a an the and or but to of in on at for is are am be was it this that i you we me my our your us with as so if do does can could would will just please thanks thank hi hello hey'.split(' '));

function tokens(text: string): Set<string> {
  return new Set(
    (text.toLowerCase().match(/[a-z0-9']+/g) ?? [])
      .filter((w) => w.length > 1 && !STOP.has(w))
      .map((w) => w.replace(/('s|ing|ed|es|s)$/, '')),
  );
}

export function jaccard(a: string, b: string): number {
  const A = tokens(a);
  const B = tokens(b);
  if (!A.size || !B.size) return 0;
  let inter = 0;
  for (const x of A) if (B.has(x)) inter++;
  return inter / (A.size + B.size - inter);
}

// Jaccard alone misses paraphrases ("what does it cost" vs "how much is it?"). The same
// specific intent means the same template produced both drafts, so the edits transfer;
// that alone clears the threshold. Catch-all intents only count with word overlap.
export const SIMILARITY_THRESHOLD = 0.3;
const SAME_INTENT_BONUS = 0.3;
const GENERIC_INTENTS = new Set(['question', 'positive', 'unclear']);

export interface Match { example: LearnedExample; score: number }

export function bestExample(
  reply: string, intent: string, medium: string, learned: LearnedExample[], intentOf: (text: string) => string, lang?: Lang,
): Match | null {
  let best: Match | null = null;
  for (const ex of learned) {
    if (ex.medium !== medium || !ex.edited?.trim() || ex.edited.trim() === ex.original?.trim()) continue;
    // An English edit replayed on a German draft would put English sentences into it.
    const exLang = detectLanguage(ex.original) ?? detectLanguage(ex.edited);
    if (lang && exLang && exLang !== lang) continue;
    const sameIntent = intentOf(ex.replyText) === intent;
    const score = jaccard(reply, ex.replyText) + (sameIntent ? (GENERIC_INTENTS.has(intent) ? 0.1 : SAME_INTENT_BONUS) : 0);
    if (score >= SIMILARITY_THRESHOLD && (!best || score > best.score)) best = { example: ex, score };
  }
  return best;
}

const GREETING_RE = /^((?:(?:hi|hey|hello|dear|good (?:morning|afternoon|evening)|greetings|morning|hallo|guten tag|liebe[rs]?|sehr geehrte[rs]?|bonjour|salut|buenos días|estimad[oa]|hoi|beste|goedendag|goedemorgen)\b|hola,?)[^,!:\n—.]{0,30}?(?:[,!:]|\s—))\s*/i;
const SIGNOFF_RE = /^(best|cheers|thanks|thank you|many thanks|regards|kind regards|best regards|warm regards|warmly|sincerely|talk soon|speak soon|all the best|best wishes|yours|take care|viele grüße|beste grüße|liebe grüße|mit freundlichen grüßen|freundliche grüße|gruß|cordialement|bien cordialement|bien à vous|à bientôt|un saludo|saludos|saludos cordiales|atentamente|met vriendelijke groet|vriendelijke groet|groeten|groet)\b[^.?]{0,20}[,!.]?$/i;

export interface Parsed { greeting: string | null; sentences: Array<{ text: string; para: number }>; signOff: string | null }

export function parseMessage(text: string): Parsed {
  let lines = text.replace(/\r/g, '').split('\n').map((l) => l.trim());
  while (lines.length && !lines[lines.length - 1]) lines.pop();
  let signOff: string | null = null;
  const n = lines.length;
  // "Best," optionally followed by up to three short lines (name, title, company).
  for (let k = Math.max(0, n - 4); k < n; k++) {
    const tail = lines.slice(k + 1);
    if (SIGNOFF_RE.test(lines[k]) && tail.every((l) => l && l.length <= 40 && !/[.?!]$/.test(l) && l.split(/\s+/).length <= 5)) {
      signOff = lines.slice(k).join('\n');
      lines = lines.slice(0, k);
      break;
    }
  }
  if (!signOff && n >= 1 && /^[—–-]\s?[\p{L} .'-]{1,30}$/u.test(lines[n - 1])) {
    signOff = lines[n - 1];
    lines = lines.slice(0, -1);
  }
  let greeting: string | null = null;
  const firstIdx = lines.findIndex((l) => l.length > 0);
  if (firstIdx >= 0) {
    const m = GREETING_RE.exec(lines[firstIdx]);
    if (m) {
      greeting = m[1].trim();
      const rest = lines[firstIdx].slice(m[0].length);
      lines[firstIdx] = rest ? rest[0].toUpperCase() + rest.slice(1) : '';
    }
  }
  const sentences: Parsed['sentences'] = [];
  let para = 0;
  let blank = false;
  for (const line of lines) {
    if (!line) { blank = true; continue; }
    if (blank && sentences.length) para++;
    blank = false;
    for (const s of splitSentences(line)) sentences.push({ text: s, para });
  }
  return { greeting, sentences, signOff };
}

/** The name the greeting addressed ("Hi Tom," → "Tom"), used to generalise edits. */
export function greetedName(greeting: string | null): string | null {
  const m = /^(?:hi|hey|hello|dear|good \w+|greetings|morning|hallo|guten tag|bonjour|salut|hola,?|hoi|beste)\s+([\p{Lu}][\p{L}'’-]+)/iu.exec(greeting ?? '');
  return m && m[1].toLowerCase() !== 'there' ? m[1] : null;
}

export const VOLATILE = new RegExp(`(?<![\\p{L}])(${CALENDAR_WORDS.join('|')}|today|tomorrow|tonight|heute|morgen|aujourd'hui|demain|hoy|mañana)(?![\\p{L}])|\\b\\d{1,2}[:.]\\d{2}\\b|\\b\\d{1,2}\\s?(am|pm|uhr|h|uur)\\b`, 'iu');

export function mask(s: string, names: string[]): string {
  let x = s.replace(/[’]/g, "'");
  for (const n of names) if (n) x = x.replace(new RegExp(`\\b${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'g'), '§n');
  x = x.replace(new RegExp(`(?<![\\p{L}])(${CALENDAR_WORDS.join('|')})(?![\\p{L}])`, 'giu'), '§d');
  x = x.replace(/\d+/g, '#');
  // Mid-sentence capitalised words are mostly company/product names that vary per lead.
  x = x.replace(/(?<=[a-z,;:—-]\s)[A-Z][\w&.-]*(?:\s[A-Z][\w&.-]*)*/g, '§p');
  return x.toLowerCase().replace(/[^\w§# ]+/g, ' ').replace(/\s+/g, ' ').trim();
}

export function similarity(a: string, b: string): number {
  if (!a && !b) return 1;
  return 1 - distance(a, b) / Math.max(a.length, b.length);
}
