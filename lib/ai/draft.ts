// A draft is kept structured (greeting / sentences / sign-off) until the very end so
// that tone rules, medium length caps and learned human edits can all operate on
// sentences instead of re-parsing prose.

import type { Lang } from './lang';
import type { Medium } from './types';

export type Tone = 'formal' | 'friendly' | 'casual' | 'direct' | 'neutral';

export interface Part {
  text: string;
  /** Parts with the same para are rendered as one paragraph (email only). */
  para: number;
  /** Higher survives length trimming longer. cta=5, answer=4, learned=4.5, ack=1. */
  prio: number;
  /** Dropped for the direct tone and for linkedin/whatsapp. */
  optional?: boolean;
  /** Variant used on linkedin/whatsapp. */
  short?: string;
  cta?: boolean;
  learned?: boolean;
  /** The sentence admits we don't know yet ("let me check"): lowers confidence. */
  hedge?: boolean;
  /** A well-wish that closes the message ("All the best"): it replaces the sign-off formula (signature.ts). */
  closing?: boolean;
}

export interface Draft {
  greeting: string | null;
  parts: Part[];
  signOff: string | null;
}

export type ByTone = Partial<Record<Tone, string>> & { neutral: string };
export const pick = (tone: Tone, v: ByTone): string => v[tone] ?? v.neutral;

export const CAPS: Record<Medium, number> = { email: 1200, linkedin: 400, whatsapp: 300 };

export function toneOf(tone: string | null | undefined): Tone {
  const t = (tone ?? '').toLowerCase();
  if (/(formal|polite|respectful|courteous|corporate)/.test(t)) return 'formal';
  if (/(direct|concise|brief|short|blunt|to the point|succinct)/.test(t)) return 'direct';
  if (/(casual|relaxed|informal|chill|laid[- ]back)/.test(t)) return 'casual';
  if (/(friendly|warm|enthusiastic|upbeat|cheerful)/.test(t)) return 'friendly';
  return 'neutral';
}

export function firstNameOf(leadName: string | null | undefined): string | null {
  const raw = (leadName ?? '').trim();
  // An address in the name field must never end up as "Hi jane.doe@acme.com".
  if (!raw || raw.includes('@') || /^\+?\d[\d\s-]+$/.test(raw)) return null;
  const parts = raw.includes(',') ? raw.split(',').reverse().join(' ').trim().split(/\s+/) : raw.split(/\s+/);
  const word = parts.find((p) => !/^(mr|mrs|ms|miss|dr|prof|sir|madam)\.?$/i.test(p));
  if (!word || !/^[\p{L}][\p{L}'’-]*$/u.test(word)) return null;
  return word[0].toUpperCase() + (word === word.toUpperCase() || word === word.toLowerCase() ? word.slice(1).toLowerCase() : word.slice(1));
}

export function greetingFor(tone: Tone, medium: Medium, first: string | null): string {
  if (tone === 'formal') {
    if (medium === 'whatsapp') return first ? `Hello ${first},` : 'Hello,';
    return first ? `Dear ${first},` : 'Hello,';
  }
  if (tone === 'casual') return first ? `Hey ${first}${medium === 'email' ? ',' : '!'}` : `Hey there${medium === 'email' ? ',' : '!'}`;
  if (tone === 'direct') return first ? `Hi ${first},` : 'Hi,';
  if (medium === 'whatsapp') return first ? `Hi ${first}!` : 'Hi there!';
  return first ? `Hi ${first},` : 'Hi there,';
}

export function signOffFor(tone: Tone, medium: Medium): string | null {
  if (medium !== 'email') return null;
  return { formal: 'Kind regards,', friendly: 'Best wishes,', casual: 'Cheers,', direct: 'Thanks,', neutral: 'Best,' }[tone];
}

const CONTRACTIONS: Array<[RegExp, string]> = [
  [/\bI'm\b/g, 'I am'], [/\bI'll\b/g, 'I will'], [/\bI'd\b/g, 'I would'], [/\bI've\b/g, 'I have'],
  [/\byou're\b/gi, 'you are'], [/\byou'll\b/gi, 'you will'], [/\byou'd\b/gi, 'you would'], [/\byou've\b/gi, 'you have'],
  [/\bwe're\b/gi, 'we are'], [/\bwe'll\b/gi, 'we will'], [/\bwe've\b/gi, 'we have'], [/\bwe'd\b/gi, 'we would'],
  [/\bit's\b/gi, 'it is'], [/\bthat's\b/gi, 'that is'], [/\bthere's\b/gi, 'there is'], [/\bhere's\b/gi, 'here is'],
  [/\bwhat's\b/gi, 'what is'], [/\bwho's\b/gi, 'who is'], [/\blet's\b/gi, 'let us'],
  [/\bwon't\b/gi, 'will not'], [/\bcan't\b/gi, 'cannot'], [/\bdon't\b/gi, 'do not'], [/\bdoesn't\b/gi, 'does not'],
  [/\bisn't\b/gi, 'is not'], [/\baren't\b/gi, 'are not'], [/\bdidn't\b/gi, 'did not'], [/\bhaven't\b/gi, 'have not'],
  [/\bwouldn't\b/gi, 'would not'], [/\bcouldn't\b/gi, 'could not'], [/\bshouldn't\b/gi, 'should not'],
];

const FORMAL_PHRASES: Array<[RegExp, string]> = [
  [/\bThanks\b/g, 'Thank you'], [/\bthanks\b/g, 'thank you'], [/\bHappy to\b/g, 'I would be glad to'],
  [/\bhappy to\b/g, 'glad to'], [/\bjust\s+/g, ''], [/\bquick call\b/g, 'short call'], [/\bheads-up\b/g, 'note'],
  [/!/g, '.'],
];

// Preserve the capital of a contraction at sentence start ("It's" -> "It is").
function expand(text: string): string {
  let out = text.replace(/’/g, "'");
  for (const [re, full] of CONTRACTIONS) {
    out = out.replace(re, (m) => (m[0] === m[0].toUpperCase() && m[0] !== 'I' ? full[0].toUpperCase() + full.slice(1) : full));
  }
  return out;
}

export function applyTone(text: string, tone: Tone): string {
  if (tone !== 'formal') return text;
  let out = expand(text);
  for (const [re, rep] of FORMAL_PHRASES) out = out.replace(re, rep);
  return out.replace(/[\u{1F300}-\u{1FAFF}\u{2600}-\u{27BF}]/gu, '').replace(/ {2,}/g, ' ');
}

// Template openers only; a context sentence starting with a brand name keeps its capital.
const SAFE_LOWER = /^(Thanks|Thank|Great|Happy|Sure|Of|Good|Understood|Completely|Totally|No|Fair|That|Would|Could|Can|Glad|Noted|Apologies|Really|Yes|Absolutely|Makes|Perfect|We|Our|Clients|Pricing|Here's|Any|If|In|Worth|Not|Most|Certainly)\b/;

function lcStart(s: string): string {
  return SAFE_LOWER.test(s) ? s[0].toLowerCase() + s.slice(1) : s;
}

/**
 * Resolves medium and tone into concrete sentences (short variants, optional parts
 * dropped, formal rewrites). Learning runs after this so a human's own wording is
 * never rewritten by the tone rules.
 */
export function prepare(draft: Draft, medium: Medium, tone: Tone, lang: Lang = 'en'): Draft {
  const short = medium !== 'email';
  // The formal rewrites are English ("I'll" → "I will"); the other phrasebooks choose their register themselves.
  const toned = (t: string) => (lang === 'en' ? applyTone(t, tone) : t);
  const parts = draft.parts
    .filter((p) => !(p.optional && (short || tone === 'direct')))
    .map((p) => ({ ...p, text: toned(short && p.short ? p.short : p.text), short: undefined, optional: false }));
  return { greeting: draft.greeting ? toned(draft.greeting) : null, parts, signOff: draft.signOff };
}

function renderWith(draft: Draft, parts: Part[], medium: Medium): string {
  if (medium !== 'email') {
    const body = parts.map((p) => p.text).join(' ');
    if (!draft.greeting) return body + (draft.signOff ? ` ${draft.signOff}` : '');
    const glued = /[,]$/.test(draft.greeting) ? lcStart(body) : body;
    return `${draft.greeting} ${glued}${draft.signOff ? `\n${draft.signOff}` : ''}`.trim();
  }
  const paras: string[] = [];
  let cur: Part[] = [];
  for (const p of parts) {
    if (cur.length && cur[cur.length - 1].para !== p.para) { paras.push(cur.map((x) => x.text).join(' ')); cur = []; }
    cur.push(p);
  }
  if (cur.length) paras.push(cur.map((x) => x.text).join(' '));
  return [draft.greeting, ...paras, draft.signOff].filter((x): x is string => !!x).join('\n\n');
}

/** Renders a prepared draft and enforces the medium's length cap by dropping the least important sentences. */
export function render(draft: Draft, medium: Medium): string {
  const cap = CAPS[medium];
  const parts = [...draft.parts];
  let text = renderWith(draft, parts, medium);
  while (text.length > cap && parts.length > 1) {
    let victim = -1;
    parts.forEach((p, i) => { if (!p.cta && (victim < 0 || p.prio < parts[victim].prio)) victim = i; });
    if (victim < 0) break;
    parts.splice(victim, 1);
    text = renderWith(draft, parts, medium);
  }
  if (text.length > cap) {
    // Last resort: cut at a sentence boundary so the message never ends mid-word.
    const cut = text.slice(0, cap);
    const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('? '), cut.lastIndexOf('! '));
    text = end > cap / 2 ? cut.slice(0, end + 1) : `${cut.slice(0, cut.lastIndexOf(' '))}…`;
  }
  return text;
}
