import { detectReturnDate } from './return_date';
import { ABSENCE_REFERRAL, NEGATOR, NOT_NEGATION, OOO_SUBJECT, OPT_OUT, SIGNALS, VALEDICTION } from './signals';
import { stripQuoted } from './strip_quoted';
import type { Classification, OfflineResult } from './types';

export { detectReturnDate };

// Precedence rules (documented because they are product decisions, not tuning):
//  1. An opt-out request anywhere in the reply's own text ("unsubscribe",
//     "remove me", "stop emailing me", and the DE/FR/NL/ES equivalents) is
//     not_interested, whatever else the reply says. Complying is a legal
//     obligation, so this must never lose to a positive signal.
//  2. An absence notice that ALSO carries explicit, first-person interest
//     ("I'm on holiday until the 14th, but yes - let's book a call when I'm
//     back") is hot: a human wrote it and wants a next step, which is what the
//     agency must act on; the return date is still extractable with
//     detectReturnDate. A machine-sent auto-reply (auto-reply subject or
//     "automatic reply" wording) never counts as interest, and the "for urgent
//     matters call X / book with my colleague" sentences of absence notices are
//     dropped before scoring because they name calls and meetings without intent.
//  3. Otherwise the label with the highest weighted score wins; ties go to the
//     more actionable/safer label in TIE_ORDER. No signal at all means the
//     reply is unclear, which is cold.
//  4. A polite refusal with a time qualifier ("not interested right now, maybe
//     next quarter") is warm: the not_interested pattern excludes the qualifier
//     and the deferral signals score for warm.

const TIE_ORDER: Classification[] = ['not_interested', 'ooo', 'hot', 'warm', 'cold'];
const CONTRAST = /\b(but|however|aber|mais|maar|pero|sin embargo)\b/g;

export function normalise(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc`´]/g, "'")
    .replace(/[\u201c\u201d\u201e]/g, '"')
    .replace(/[\u2013\u2014]/g, '-')
    .replace(/[ \t\u00a0]+/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .join('\n')
    .trim();
}

/** Drops a valediction and everything after it, so titles/phone lines don't score. */
function dropSignoff(text: string): string {
  const lines = text.split('\n');
  for (let i = 1; i < lines.length; i++) {
    if (VALEDICTION.test(lines[i]) && lines.slice(0, i).some((l) => l !== '')) {
      return lines.slice(0, i).join('\n');
    }
  }
  return text;
}

function negated(text: string, index: number): boolean {
  let prefix = text.slice(Math.max(0, index - 40), index);
  // A contrast word starts a new clause: "not sure yet but happy to take a call".
  let last = -1;
  for (const m of prefix.matchAll(CONTRAST)) last = m.index! + m[0].length;
  if (last >= 0) prefix = prefix.slice(last);
  return NEGATOR.test(prefix.replace(NOT_NEGATION, ' '));
}

// Compiled once: matchAll needs the global flag.
const COMPILED = SIGNALS.map((s) => ({ ...s, g: new RegExp(s.re.source, s.re.flags.replace('g', '') + 'g') }));

function score(text: string): { scores: Record<Classification, number>; signals: string[] } {
  const scores: Record<Classification, number> = { hot: 0, warm: 0, cold: 0, not_interested: 0, ooo: 0 };
  const signals: string[] = [];
  // What follows the last "but" is usually the decision ("interesting, but we're
  // happy with our tool"; "on holiday, but yes let's talk"), so it counts more.
  let pivot = -1;
  for (const m of text.matchAll(CONTRAST)) pivot = m.index!;
  const weak: typeof COMPILED = [];
  for (const s of COMPILED) {
    if (s.weak) {
      weak.push(s);
      continue;
    }
    let weight = 0;
    for (const m of text.matchAll(s.g)) {
      if (s.neg && negated(text, m.index!)) continue;
      weight = Math.max(weight, pivot >= 0 && m.index! + m[0].length > pivot + 4 ? s.w * 1.5 : s.w);
      if (weight > s.w) break;
    }
    if (weight > 0) {
      scores[s.label] += weight;
      signals.push(s.name);
    }
  }
  if (scores.hot === 0 && scores.warm === 0) {
    for (const s of weak) {
      if (s.re.test(text)) {
        scores[s.label] += s.w;
        signals.push(s.name);
      }
    }
  }
  return { scores, signals };
}

function rank(scores: Record<Classification, number>): Classification[] {
  return [...TIE_ORDER].sort((a, b) => scores[b] - scores[a] || TIE_ORDER.indexOf(a) - TIE_ORDER.indexOf(b));
}

function confidenceFrom(best: number, second: number): number {
  if (best <= 0) return 0.3;
  return Math.min(0.99, Math.round((0.5 + (0.5 * (best - second)) / best) * 100) / 100);
}

export function classifyOffline(text: string, opts: { subject?: string } = {}): OfflineResult {
  const own = dropSignoff(normalise(stripQuoted(text ?? '')));
  const subject = normalise(opts.subject ?? '');

  // Also test with punctuation flattened: "Stop. Emailing. Me."
  const flat = own.replace(/[.,;!]+/g, ' ').replace(/\s+/g, ' ');
  if (OPT_OUT.some((re) => re.test(own) || re.test(flat))) {
    return { classification: 'not_interested', confidence: 0.97, signals: ['ni.opt_out'] };
  }

  const autoSubject = OOO_SUBJECT.test(subject);
  const returnDate = detectReturnDate(own) !== null;
  let { scores, signals } = score(own);
  if (autoSubject || returnDate || scores.ooo > 0) {
    // Absence notice: drop the "if urgent, call/contact …" sentences and rescore.
    const sentences = own.split(/(?<=[.!?])\s+|\n+/);
    const kept = sentences.filter((x) => !ABSENCE_REFERRAL.test(x));
    if (kept.length < sentences.length) ({ scores, signals } = score(kept.join('\n')));
  }
  if (autoSubject) {
    scores.ooo += 5;
    signals.push('ooo.subject');
  }
  if (returnDate) {
    // "until 12 March" / "ab dem 22. April" phrasing is typical of absence notices.
    scores.ooo += 1.5;
    signals.push('ooo.return_date');
  }

  const ranked = rank(scores);
  const machine = autoSubject || signals.includes('ooo.auto');
  // Rule 2: human-written absence + explicit interest → hot.
  if (ranked[0] === 'ooo' && !machine && scores.hot >= 3 && scores.not_interested === 0) {
    signals.push('rule.ooo_with_interest');
    return { classification: 'hot', confidence: 0.6, signals };
  }
  const best = ranked[0];
  if (scores[best] <= 0) return { classification: 'cold', confidence: 0.3, signals: ['cold.no_signal'] };
  return { classification: best, confidence: confidenceFrom(scores[best], scores[ranked[1]]), signals };
}
