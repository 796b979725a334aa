import { stripQuoted } from './strip_quoted';
import { ABSENCE_REFERRAL, NEGATOR, OOO_SUBJECT, OPT_OUT, SIGNALS, VALEDICTION } from './signals';
import type { Classification, OfflineResult } from './types';

export { detectReturnDate } from './return_date';

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
  return NEGATOR.test(prefix);
}

function score(text: string): { scores: Record<Classification, number>; signals: string[] } {
  const scores: Record<Classification, number> = { hot: 0, warm: 0, cold: 0, not_interested: 0, ooo: 0 };
  const signals: string[] = [];
  for (const s of SIGNALS) {
    const re = new RegExp(s.re.source, s.re.flags.includes('g') ? s.re.flags : s.re.flags + 'g');
    let fired = false;
    for (const m of text.matchAll(re)) {
      if (s.neg && negated(text, m.index!)) continue;
      fired = true;
      break;
    }
    if (fired) {
      scores[s.label] += s.w;
      signals.push(s.name);
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

  const optOut = OPT_OUT.find((re) => re.test(own));
  if (optOut) return { classification: 'not_interested', confidence: 0.97, signals: ['ni.opt_out'] };

  let { scores, signals } = score(own);
  const autoSubject = OOO_SUBJECT.test(subject);
  if (autoSubject) {
    scores.ooo += 5;
    signals.push('ooo.subject');
  }

  let body = own;
  if (scores.ooo > 0) {
    // Rescore without the "if urgent, call/contact …" sentences of absence notices.
    body = own
      .split(/(?<=[.!?])\s+|\n+/)
      .filter((s) => !ABSENCE_REFERRAL.test(s))
      .join('\n');
    const again = score(body);
    scores = again.scores;
    signals = again.signals;
    if (autoSubject) {
      scores.ooo += 5;
      signals.push('ooo.subject');
    }
  }

  const machine = autoSubject || signals.includes('ooo.auto');
  let ranked = rank(scores);
  // Rule 2: human-written absence + explicit interest → hot.
  if (ranked[0] === 'ooo' && !machine && scores.hot >= 3 && scores.not_interested === 0) {
    signals.push('rule.ooo_with_interest');
    ranked = ['hot', ...ranked.filter((l) => l !== 'hot')];
    return { classification: 'hot', confidence: 0.6, signals };
  }
  const best = ranked[0];
  if (scores[best] <= 0) return { classification: 'cold', confidence: 0.3, signals: ['cold.no_signal'] };
  return { classification: best, confidence: confidenceFrom(scores[best], scores[ranked[1]]), signals };
}
