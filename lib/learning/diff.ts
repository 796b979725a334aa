// Mining one before/after pair of a mail into rule candidates. Pure and deterministic: the sentences are aligned
// (longest common subsequence), each changed stretch is read as a removed phrase, a replaced phrase, a changed
// sign-off, an added sentence, and the whole as a shortening. Anything that looks like a fact about the prospect
// (a name, a company, a number, an address) is dropped: learning adapts wording and style, never facts (issue 12).
import type { WrittenMail } from '../../schema';
import { normalise, splitSentences } from '../writing/sentences';
import type { RuleSpec } from './rules';

export type Candidate = { spec: RuleSpec; before: string; after: string };
type Sent = { text: string; fromField: boolean };

const sentencesOf = (m: WrittenMail): Sent[] =>
  m.sentences?.length ? m.sentences.map((s) => ({ text: s.text, fromField: s.source?.kind === 'field' })) : splitSentences(m.body).map((p) => ({ text: p.text, fromField: false }));

type Op = { op: 'same' | 'del' | 'add'; b?: number; a?: number };

/** The edit script from `b` to `a` by longest common subsequence of normalised sentences. */
function align(b: string[], a: string[]): Op[] {
  const n = b.length;
  const m = a.length;
  const L = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) L[i][j] = b[i] === a[j] ? L[i + 1][j + 1] + 1 : Math.max(L[i + 1][j], L[i][j + 1]);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && b[i] === a[j]) ops.push({ op: 'same', b: i++, a: j++ });
    else if (i < n && (j >= m || L[i + 1][j] >= L[i][j + 1])) ops.push({ op: 'del', b: i++ });
    else ops.push({ op: 'add', a: j++ });
  }
  return ops;
}

const words = (s: string) => s.trim().split(/\s+/).filter(Boolean);
const stripEnd = (s: string) => s.replace(/[\s.,!?;:]+$/, '');
const bare = (w: string) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
// Words that are capitalised wherever they stand; any other capital inside a sentence reads as a proper name.
const ALWAYS_CAPITAL = new Set(['i', "i'm", "i'd", "i'll", "i've", 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'ps', 'p.s']);

/** A fact test for one lead: its own values, numbers, addresses, and proper names inside a sentence. */
export function factTest(leadValues: readonly (string | null | undefined)[]) {
  const values = leadValues.filter((v): v is string => !!v && v.trim().length >= 3).map(normalise);
  return (phrase: string, sentenceStart: boolean): boolean => {
    if (/\d|@|https?:|www\.|\.[a-z]{2,}\b\//i.test(phrase)) return true;
    const n = normalise(phrase);
    if (values.some((v) => n.includes(v) || (n.length >= 8 && v.includes(n)))) return true;
    return words(phrase).some((w, i) => {
      const b = bare(w);
      return (i > 0 || !sentenceStart) && /^\p{Lu}/u.test(b) && !ALWAYS_CAPITAL.has(b.toLowerCase());
    });
  };
}

/** The differing middle of two sentences, word by word, and whether it starts the sentence. */
function middle(b: string, a: string) {
  const wb = words(b);
  const wa = words(a);
  let p = 0;
  while (p < wb.length && p < wa.length && wb[p].toLowerCase() === wa[p].toLowerCase()) p++;
  let s = 0;
  while (s < wb.length - p && s < wa.length - p && wb[wb.length - 1 - s].toLowerCase() === wa[wa.length - 1 - s].toLowerCase()) s++;
  return { from: wb.slice(p, wb.length - s).join(' '), to: wa.slice(p, wa.length - s).join(' '), start: p === 0, shared: p + s };
}

const SIGN_OFF_WORDS = 5;

/** Most words shared at the start and end: an edit of the sentence, not another sentence. */
const similar = (b: string, a: string) => middle(b, a).shared / Math.max(words(b).length, words(a).length) >= 0.34;
/** One of the last two lines of a mail of three or more, and short: where a mail signs off (never its greeting). */
const isSignOff = (list: Sent[], i: number) => list.length >= 3 && i >= 1 && i >= list.length - 2 && words(list[i].text).length <= SIGN_OFF_WORDS;

export function mineMail(step: number, before: WrittenMail, after: WrittenMail, isFact: (phrase: string, sentenceStart: boolean) => boolean): Candidate[] {
  const sb = sentencesOf(before);
  const sa = sentencesOf(after);
  const ops = align(sb.map((s) => normalise(s.text)), sa.map((s) => normalise(s.text)));
  const out: Candidate[] = [];
  const push = (c: Candidate) => {
    if (!out.some((o) => JSON.stringify(o.spec) === JSON.stringify(c.spec))) out.push(c);
  };
  for (let k = 0; k < ops.length; ) {
    if (ops[k].op === 'same') {
      k++;
      continue;
    }
    const dels: number[] = [];
    const adds: number[] = [];
    for (; k < ops.length && ops[k].op !== 'same'; k++) (ops[k].op === 'del' ? dels.push(ops[k].b!) : adds.push(ops[k].a!));
    // Pair each removed sentence with the first unused added one it resembles (or, near the end, a short line
    // for a short line: a sign-off); the rest are plain removals and additions.
    const taken = new Set<number>();
    const pairOf = new Map<number, number>();
    for (const d of dels) {
      const match = adds.find((x) => !taken.has(x) && (similar(sb[d].text, sa[x].text) || (isSignOff(sb, d) && isSignOff(sa, x))));
      if (match !== undefined) {
        taken.add(match);
        pairOf.set(d, match);
      }
    }
    for (const d of dels) {
      const b = sb[d];
      // A sentence written from a field is the prospect's own fact: changing it teaches nothing general.
      if (b.fromField) continue;
      const x = pairOf.get(d);
      if (x === undefined) {
        if (!isFact(b.text, true)) push({ spec: { kind: 'avoid_phrase', phrase: stripEnd(b.text) }, before: b.text, after: '' });
        continue;
      }
      const a = sa[x];
      if (isSignOff(sb, d) && isSignOff(sa, x)) {
        if (!isFact(b.text, true) && !isFact(a.text, true)) push({ spec: { kind: 'sign_off', from: b.text, to: a.text }, before: b.text, after: a.text });
        continue;
      }
      const mid = middle(b.text, a.text);
      if (!mid.from || isFact(mid.from, mid.start) || isFact(mid.to, mid.start)) continue;
      push(mid.to ? { spec: { kind: 'replace_phrase', from: mid.from, to: mid.to }, before: mid.from, after: mid.to } : { spec: { kind: 'avoid_phrase', phrase: stripEnd(mid.from) }, before: mid.from, after: '' });
    }
    for (const x of adds) {
      if (taken.has(x) || isFact(sa[x].text, true)) continue;
      push({ spec: { kind: 'add_sentence', step, sentence: sa[x].text }, before: '', after: sa[x].text });
    }
  }
  // Much shorter as a whole: a length rule, the number of sentences the person kept.
  const wb = words(before.body).length;
  const wa = words(after.body).length;
  if (sa.length >= 2 && sa.length < sb.length && wa <= 0.7 * wb) push({ spec: { kind: 'max_sentences', max: sa.length }, before: `${sb.length} sentences`, after: `${sa.length} sentences` });
  return out;
}
