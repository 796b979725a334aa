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
  const results = cases.map((c) => classifyOffline(c.text, { subject: c.subject }));
  return scoreLabels(
    cases.map((c) => c.label),
    results.map((r) => r.classification),
    (index) => ({ signals: results[index].signals, text: cases[index].text }),
  );
}

/** Accuracy, per-label precision/recall and the confusion matrix of any predictions (the cross-validation uses it). */
export function scoreLabels(
  gold: Classification[],
  predicted: Classification[],
  detail: (index: number) => { signals: string[]; text: string } = () => ({ signals: [], text: '' }),
): EvalReport {
  const zeroRow = () => Object.fromEntries(CLASSIFICATIONS.map((c) => [c, 0])) as Record<Classification, number>;
  const confusion = Object.fromEntries(CLASSIFICATIONS.map((c) => [c, zeroRow()])) as EvalReport['confusion'];
  const misses: Miss[] = [];
  gold.forEach((expected, index) => {
    const got = predicted[index];
    confusion[expected][got]++;
    if (got !== expected) misses.push({ index, expected, got, ...detail(index) });
  });
  const perLabel = {} as EvalReport['perLabel'];
  for (const l of CLASSIFICATIONS) {
    const tp = confusion[l][l];
    const support = CLASSIFICATIONS.reduce((s, p) => s + confusion[l][p], 0);
    const predictedN = CLASSIFICATIONS.reduce((s, e) => s + confusion[e][l], 0);
    perLabel[l] = { precision: predictedN ? tp / predictedN : 0, recall: support ? tp / support : 0, support };
  }
  const correct = gold.length - misses.length;
  return { total: gold.length, correct, accuracy: gold.length ? correct / gold.length : 0, perLabel, confusion, misses };
}
