import { classifyOffline } from './offline';
import { CLASSIFICATIONS, type Classification } from './types';

// Shared by scripts/eval_classify.ts (human-readable report) and the eval test
// (floors), so both always measure the same thing.

export interface LabelledReply { text: string; subject?: string; label: Classification }
export interface Miss { index: number; expected: Classification; got: Classification; signals: string[]; text: string }
export interface EvalReport {
  total: number;
  correct: number;
  accuracy: number;
  perLabel: Record<Classification, { precision: number; recall: number; support: number }>;
  /** confusion[expected][predicted] */
  confusion: Record<Classification, Record<Classification, number>>;
  misses: Miss[];
}

export function evaluate(cases: LabelledReply[]): EvalReport {
  const zeroRow = () => Object.fromEntries(CLASSIFICATIONS.map((c) => [c, 0])) as Record<Classification, number>;
  const confusion = Object.fromEntries(CLASSIFICATIONS.map((c) => [c, zeroRow()])) as EvalReport['confusion'];
  const misses: Miss[] = [];
  cases.forEach((c, index) => {
    const r = classifyOffline(c.text, { subject: c.subject });
    confusion[c.label][r.classification]++;
    if (r.classification !== c.label) {
      misses.push({ index, expected: c.label, got: r.classification, signals: r.signals, text: c.text });
    }
  });
  const perLabel = {} as EvalReport['perLabel'];
  for (const l of CLASSIFICATIONS) {
    const tp = confusion[l][l];
    const support = CLASSIFICATIONS.reduce((s, p) => s + confusion[l][p], 0);
    const predicted = CLASSIFICATIONS.reduce((s, e) => s + confusion[e][l], 0);
    perLabel[l] = { precision: predicted ? tp / predicted : 0, recall: support ? tp / support : 0, support };
  }
  const correct = cases.length - misses.length;
  return { total: cases.length, correct, accuracy: cases.length ? correct / cases.length : 0, perLabel, confusion, misses };
}
