// Applying active learned rules to a written mail. A sentence a rule changed cites the rule; a sentence without a
// source (a missing value) keeps source null, since the rule did not supply the missing fact.
import type { SentenceSource } from '../../schema';
import type { ActiveRule } from './port';
import { normalise, type Break } from './sentences';

export type Line = { text: string; brk: Break; source: SentenceSource | null };

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// `i` for testing (a `g` regex keeps state between tests), `gi` for replacing every occurrence.
// Compiled once per phrase: a 1,000-lead round applies the same few rules thousands of times.
const compiled = new Map<string, RegExp>();
function phraseRe(phrase: string, flags = 'i'): RegExp {
  const key = `${flags}\u0000${phrase}`;
  let re = compiled.get(key);
  if (!re) {
    if (compiled.size > 10_000) compiled.clear();
    re = new RegExp(escape(phrase.trim()).replace(/\s+/g, '\\s+'), flags);
    compiled.set(key, re);
  }
  // A `g` regex carries lastIndex between uses; every use starts from the beginning.
  re.lastIndex = 0;
  return re;
}
const tidy = (s: string) => s.replace(/\s{2,}/g, ' ').replace(/\s+([,.!?;:])/g, '$1').replace(/^[,;:]\s*/, '').trim();
const cite = (line: Line, rule: ActiveRule): SentenceSource | null => (line.source === null ? null : { kind: 'rule', ref: rule.id });

/** A sentence that ends like one: where an added sentence goes after (before the sign-off lines). */
const ENDS_SENTENCE = /[.!?]["')\]]?$/;

export function applyRules(rules: readonly ActiveRule[], step: number, input: Line[], used: Set<string>): Line[] {
  let lines = input;
  for (const rule of rules) {
    const r = rule.spec;
    const before = lines;
    switch (r.kind) {
      case 'replace_phrase':
      case 'sign_off': {
        const re = phraseRe(r.from);
        // A sign-off lives in the last two lines; a phrase anywhere.
        const from = r.kind === 'sign_off' ? Math.max(0, lines.length - 2) : 0;
        lines = lines.map((l, i) => (i >= from && re.test(l.text) ? { ...l, text: l.text.replace(phraseRe(r.from, 'gi'), () => r.to), source: cite(l, rule) } : l));
        break;
      }
      case 'avoid_phrase': {
        const re = phraseRe(r.phrase);
        const whole = normalise(r.phrase).replace(/[.!?,]+$/, '');
        lines = lines.flatMap((l, i) => {
          if (!re.test(l.text)) return [l];
          if (normalise(l.text).replace(/[.!?,]+$/, '') === whole || !/[a-z]/i.test(tidy(l.text.replace(phraseRe(r.phrase, 'gi'), '')))) {
            // The whole sentence goes; the next one takes over its break so paragraphs stay where they were.
            const next = lines[i + 1];
            if (next && l.brk.length > next.brk.length) next.brk = l.brk;
            return [];
          }
          return [{ ...l, text: tidy(l.text.replace(phraseRe(r.phrase, 'gi'), '')), source: cite(l, rule) }];
        });
        break;
      }
      case 'add_sentence': {
        if (r.step !== step || lines.some((l) => normalise(l.text) === normalise(r.sentence))) break;
        let at = lines.length;
        for (let i = lines.length - 1; i >= 0; i--) if (ENDS_SENTENCE.test(lines[i].text)) { at = i + 1; break; }
        const added: Line = { text: r.sentence, brk: '\n\n', source: { kind: 'rule', ref: rule.id } };
        lines = [...lines.slice(0, at), added, ...lines.slice(at)];
        break;
      }
      case 'max_sentences': {
        // Shorten from the end of the middle: the greeting (first line) and the sign-off (last line) stay.
        const out = [...lines];
        for (let i = out.length - 2; i >= 1 && out.length > r.max; i--) {
          if (out[i].source?.kind === 'sequence' || out[i].source?.kind === 'docs') out.splice(i, 1);
        }
        lines = out;
        break;
      }
    }
    if (lines !== before && (lines.length !== before.length || lines.some((l, i) => l !== before[i]))) used.add(rule.id);
  }
  return lines;
}
