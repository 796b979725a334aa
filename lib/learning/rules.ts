// What a learned rule says, as data. The table keeps a rule as kind + text (learned_rules.rule) and a stable key;
// the text is written by ruleText and read back by parseRule, so the writer applies exactly what the person reads.
import { normalise } from '../writing/sentences';

export type RuleSpec =
  | { kind: 'avoid_phrase'; phrase: string }
  | { kind: 'replace_phrase'; from: string; to: string }
  | { kind: 'sign_off'; from: string; to: string }
  | { kind: 'add_sentence'; step: number; sentence: string }
  | { kind: 'max_sentences'; max: number };

export type RuleKind = RuleSpec['kind'];
export const RULE_KINDS: readonly RuleKind[] = ['avoid_phrase', 'replace_phrase', 'sign_off', 'add_sentence', 'max_sentences'];

const q = (s: string) => JSON.stringify(s);

/** The sentence a person reads in learned_rules; parseRule reads it back. */
export function ruleText(r: RuleSpec): string {
  switch (r.kind) {
    case 'avoid_phrase':
      return `Never write ${q(r.phrase)}.`;
    case 'replace_phrase':
      return `Write ${q(r.to)} instead of ${q(r.from)}.`;
    case 'sign_off':
      return `Sign off with ${q(r.to)} instead of ${q(r.from)}.`;
    case 'add_sentence':
      return `In mail ${r.step}, add ${q(r.sentence)}.`;
    case 'max_sentences':
      return `Keep each mail to at most ${r.max} sentences.`;
  }
}

/** Identity of a rule within a client: the same advice mined twice is one rule with more evidence. */
export function ruleKey(r: RuleSpec): string {
  switch (r.kind) {
    case 'avoid_phrase':
      return `avoid_phrase:${normalise(r.phrase)}`;
    case 'replace_phrase':
    case 'sign_off':
      return `${r.kind}:${normalise(r.from)}=>${normalise(r.to)}`;
    case 'add_sentence':
      return `add_sentence:${r.step}:${normalise(r.sentence)}`;
    case 'max_sentences':
      return `max_sentences:${r.max}`;
  }
}

const QUOTED = /"((?:[^"\\]|\\.)*)"/g;

/** The rule's arguments from its text; null for a text this version does not understand (the writer skips it). */
export function parseRule(kind: string, text: string): RuleSpec | null {
  const quoted = [...text.matchAll(QUOTED)].map((m) => JSON.parse(`"${m[1]}"`) as string);
  switch (kind) {
    case 'avoid_phrase':
      return quoted.length === 1 ? { kind, phrase: quoted[0] } : null;
    case 'replace_phrase':
    case 'sign_off':
      return quoted.length === 2 ? { kind, to: quoted[0], from: quoted[1] } : null;
    case 'add_sentence': {
      const step = /^In mail (\d+),/.exec(text);
      return step && quoted.length === 1 ? { kind, step: Number(step[1]), sentence: quoted[0] } : null;
    }
    case 'max_sentences': {
      const max = /at most (\d+) sentences/.exec(text);
      return max ? { kind, max: Number(max[1]) } : null;
    }
    default:
      return null;
  }
}
