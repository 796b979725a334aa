// Replays one human edit (original → edited) onto a new, prepared draft.
// See learn.ts for how the example is chosen.

import { stripQuoted } from '../classify/strip_quoted';
import { splitSentences } from './context';
import type { Draft, Part } from './draft';
import { VOLATILE, greetedName, mask, parseMessage, similarity } from './learn';
import { bringsFacts, isCourtesy } from './learn_guard';
import type { LearnedExample } from './types';

const SAME = 0.8; // masked sentences this close came from the same template line
const REWRITE = 0.5; // a removed + an added sentence this close is one sentence reworded

/** `known`: this prospect's own thread and draft (never the campaign brief: its words say nothing about an edit's specifics). */
export interface Lead { first: string | null; company: string | null; known: string }

function lcsPairs(n: number, m: number, eq: (i: number, j: number) => boolean): Array<[number, number]> {
  const dp = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) {
    dp[i][j] = eq(i, j) ? dp[i + 1][j + 1] + 1 : Math.max(dp[i + 1][j], dp[i][j + 1]);
  }
  const out: Array<[number, number]> = [];
  for (let i = 0, j = 0; i < n && j < m;) {
    if (eq(i, j)) { out.push([i, j]); i++; j++; } else if (dp[i + 1][j] >= dp[i][j + 1]) i++; else j++;
  }
  return out;
}

/** Word-level hunks with one word of context each side, e.g. "a quick call" → "a 15-minute call". */
function hunks(a: string, b: string): Array<{ from: string; to: string }> {
  const A = a.split(/\s+/);
  const B = b.split(/\s+/);
  const pairs = lcsPairs(A.length, B.length, (i, j) => A[i] === B[j]);
  const out: Array<{ from: string; to: string }> = [];
  let pi = -1;
  let pj = -1;
  for (const [i, j] of [...pairs, [A.length, B.length] as [number, number]]) {
    if (i > pi + 1 || j > pj + 1) {
      const left = pi >= 0 ? [A[pi]] : [];
      const right = i < A.length ? [A[i]] : [];
      out.push({ from: [...left, ...A.slice(pi + 1, i), ...right].join(' '), to: [...left, ...B.slice(pj + 1, j), ...right].join(' ') });
    }
    pi = i;
    pj = j;
  }
  return out;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Moves a sentence written for another lead over to this one, or returns null if it can't be. */
function transplant(s: string, oldName: string | null, lead: Lead, ex: LearnedExample): string | null {
  if (VOLATILE.test(s)) return null; // dates/times from the old thread would be wrong here
  let out = s;
  if (oldName && new RegExp(`\\b${escapeRe(oldName)}\\b`).test(out)) {
    if (!lead.first) return null;
    out = out.replace(new RegExp(`\\b${escapeRe(oldName)}\\b`, 'g'), lead.first);
  }
  const oldText = `${ex.original}\n${ex.replyText}`;
  const allowed = `${lead.known}\n${ex.original}`.toLowerCase();
  for (const m of out.matchAll(/(?<=\S\s)\p{Lu}[\p{L}\d&.-]*(?:\s\p{Lu}[\p{L}\d&.-]*)*/gu)) {
    const word = m[0].replace(/[.,]$/, '');
    if (lead.known.includes(word) || word === lead.first || /^[A-Z]{2,5}s?$/.test(word)) continue;
    // A name the old thread had but this one doesn't is the old lead's company: swap it.
    if (lead.company && oldText.includes(word) && !lead.known.includes(word)) {
      out = out.replace(word, lead.company);
      continue;
    }
    // German capitalises every noun: "Gespräch" is a word, not a name, when it is courtesy or already in use.
    if (word.split(/\s/).every((w) => isCourtesy(w) || allowed.includes(w.toLowerCase()))) continue;
    // Any other unknown proper noun can't be told apart from a name, so the sentence is
    // skipped — a missing learned line is harmless, another client's name is not.
    return null;
  }
  // Learning adapts wording, never facts: no event, number or claim from the other thread (learn_guard.ts).
  return bringsFacts(out, `${lead.known}\n${ex.original}`, [lead.first ?? '', lead.company ?? '']) ? null : out;
}

function explode(parts: Part[]): Part[] {
  return parts.flatMap((p) => splitSentences(p.text).map((text) => ({ ...p, text })));
}

export function applyEdits(draft: Draft, ex: LearnedExample, lead: Lead): { draft: Draft; changed: boolean } {
  // What was sent may carry the quoted thread below it; only the reply itself was edited.
  const O = parseMessage(stripQuoted(ex.original));
  const E = parseMessage(stripQuoted(ex.edited));
  const oldName = greetedName(O.greeting) ?? greetedName(E.greeting);
  const names = [oldName, lead.first].filter((x): x is string => !!x);
  const mk = (s: string) => mask(s, names);
  const oM = O.sentences.map((s) => mk(s.text));
  const eM = E.sentences.map((s) => mk(s.text));
  const matched = lcsPairs(oM.length, eM.length, (i, j) => similarity(oM[i], eM[j]) >= 0.85);
  const oMatched = new Map(matched.map(([i, j]) => [i, j]));
  const eMatched = new Map(matched.map(([i, j]) => [j, i]));
  const removed = oM.map((_, i) => i).filter((i) => !oMatched.has(i));
  const rewrites = new Map<number, number>(); // original idx → edited idx
  const added: number[] = [];
  for (let j = 0; j < eM.length; j++) {
    if (eMatched.has(j)) continue;
    let best = -1;
    for (const i of removed) if (!rewrites.has(i) && similarity(oM[i], eM[j]) >= REWRITE && (best < 0 || similarity(oM[i], eM[j]) > similarity(oM[best], eM[j]))) best = i;
    if (best >= 0) rewrites.set(best, j); else added.push(j);
  }

  let changed = false;
  const out: Draft = { ...draft, parts: explode(draft.parts) };
  if ((O.greeting ?? '') !== (E.greeting ?? '')) {
    const tpl = E.greeting && oldName ? E.greeting.replace(new RegExp(`\\b${escapeRe(oldName)}\\b`), '{name}') : E.greeting;
    const next = !tpl ? null : !tpl.includes('{name}') ? tpl : lead.first ? tpl.replace('{name}', lead.first) : /^(hi|hey)\b/i.test(tpl) ? tpl.replace('{name}', 'there') : out.greeting;
    if (next !== out.greeting) { out.greeting = next; changed = true; }
  }
  if ((O.signOff ?? '') !== (E.signOff ?? '') && out.signOff !== E.signOff) { out.signOff = E.signOff; changed = true; }

  // A human who rewrote most of the message gave us a one-off, not a pattern to replay.
  if (O.sentences.length >= 2 && matched.length / O.sentences.length < 0.34) return { draft: out, changed };

  const origin: Array<number | null> = [];
  const kept: Part[] = [];
  for (const p of out.parts) {
    const m = mk(p.text);
    let oi: number | null = null;
    for (let i = 0; i < oM.length; i++) if (similarity(m, oM[i]) >= SAME && (oi === null || similarity(m, oM[i]) > similarity(m, oM[oi]))) oi = i;
    const reworded = oi !== null ? rewrites.get(oi) : undefined;
    const tweaked = oi !== null ? oMatched.get(oi) : undefined;
    if (oi !== null && removed.includes(oi) && reworded === undefined) { changed = true; continue; } // the human deleted it
    const j = reworded ?? tweaked;
    if (oi !== null && j !== undefined && O.sentences[oi].text !== E.sentences[j].text) {
      // Small edits ("a quick call" → "a 15-minute call") replay as word-level hunks.
      let text = p.text;
      let applied = 0;
      const rename = (s: string) => (oldName && lead.first ? s.replace(new RegExp(`\\b${escapeRe(oldName)}\\b`, 'g'), lead.first) : s);
      const hs = hunks(O.sentences[oi].text, E.sentences[j].text).map((h) => ({ from: rename(h.from), to: rename(h.to) }));
      const names = [lead.first ?? '', lead.company ?? ''];
      for (const h of hs) {
        // A rewrite that brings new specifics ("a call" → "a call about your Series B") is not replayed.
        if (!h.from || !text.includes(h.from) || VOLATILE.test(h.to) || bringsFacts(h.to, `${h.from}\n${lead.known}\n${ex.original}`, names)) continue;
        text = text.replace(h.from, h.to);
        applied++;
      }
      // A reworded sentence whose hunks don't fit is taken whole, if it transplants cleanly.
      if (reworded !== undefined && applied < hs.length) text = transplant(E.sentences[j].text, oldName, lead, ex) ?? text;
      if (text !== p.text) { kept.push({ ...p, text, learned: true }); origin.push(oi); changed = true; continue; }
    }
    kept.push(p);
    origin.push(oi);
  }

  for (const j of added) {
    const text = transplant(E.sentences[j].text, oldName, lead, ex);
    if (!text) continue;
    let k = j - 1;
    while (k >= 0 && !eMatched.has(k)) k--;
    const anchor = k >= 0 ? origin.indexOf(eMatched.get(k) as number) : -1;
    const ctaAt = kept.findIndex((p) => p.cta);
    const at = k < 0 ? 0 : anchor >= 0 ? anchor + 1 : j === eM.length - 1 ? kept.length : ctaAt >= 0 ? ctaAt : kept.length;
    const ref = kept[Math.min(at, kept.length - 1)] ?? kept[0];
    const prevPara = E.sentences[j - 1]?.para;
    const nextPara = E.sentences[j + 1]?.para;
    const ownPara = prevPara !== E.sentences[j].para && nextPara !== E.sentences[j].para && E.sentences.length > 1;
    const para = ref ? (ownPara ? (kept[at - 1]?.para ?? ref.para) + 0.5 : at > 0 ? kept[at - 1].para : ref.para) : 0;
    kept.splice(at, 0, { text, para, prio: 4.5, learned: true });
    origin.splice(at, 0, null);
    changed = true;
  }
  return { draft: { ...out, parts: kept }, changed };
}
