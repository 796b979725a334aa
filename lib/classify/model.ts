import { hashFeatures } from './features';
import { CLASSIFICATIONS, type Classification } from './types';

// The learned layer: a multinomial logistic regression over hashed features (lib/classify/features.ts). It ships as
// data (lib/classify/model_data.ts, written by `npm run train:classify`), weights quantised to one signed byte each.

export interface ModelData {
  version: 1;
  /** log2 of the number of hash buckets. */
  bits: number;
  labels: Classification[];
  /** weight = byte * scale */
  scale: number;
  bias: number[];
  /** base64 of Int8Array(labels.length << bits), label-major. */
  weights: string;
  /** How it was trained, for the record (sets, sizes, hyper-parameters). */
  trainedOn: string;
}

export interface LoadedModel {
  bits: number;
  labels: Classification[];
  scale: number;
  bias: number[];
  w: Int8Array;
}

export function loadModel(data: ModelData): LoadedModel {
  if (data.version !== 1) throw new Error(`classifier model: unknown version ${data.version}`);
  const bin = atob(data.weights);
  const w = new Int8Array(bin.length);
  for (let i = 0; i < bin.length; i++) w[i] = (bin.charCodeAt(i) << 24) >> 24;
  if (w.length !== data.labels.length << data.bits) throw new Error('classifier model: weight table has the wrong size');
  for (const l of data.labels) if (!(CLASSIFICATIONS as readonly string[]).includes(l)) throw new Error(`classifier model: unknown label ${l}`);
  return { bits: data.bits, labels: data.labels, scale: data.scale, bias: data.bias, w };
}

/** Probabilities per label (softmax of the linear scores). */
export function predictHashed(m: LoadedModel, vec: Map<number, number>): Record<Classification, number> {
  const k = m.labels.length;
  const z = m.bias.slice();
  for (let c = 0; c < k; c++) {
    const off = c << m.bits;
    let s = 0;
    for (const [b, x] of vec) s += m.w[off + b] * x;
    z[c] += s * m.scale;
  }
  return softmax(m.labels, z);
}

export function predict(m: LoadedModel, feats: Map<number, number>): Record<Classification, number> {
  return predictHashed(m, hashFeatures(feats, m.bits));
}

export function softmax(labels: readonly Classification[], z: number[]): Record<Classification, number> {
  const max = Math.max(...z);
  const e = z.map((v) => Math.exp(v - max));
  const sum = e.reduce((a, b) => a + b, 0);
  const out = {} as Record<Classification, number>;
  labels.forEach((l, i) => (out[l] = e[i] / sum));
  return out;
}

function toBase64(bytes: Int8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i] & 0xff);
  return btoa(s);
}

// ---------------------------------------------------------------------------------------------------------------
// Training (scripts/train_classify.ts and the cross-validation of scripts/eval_classify.ts). Deterministic: a fixed
// example order per epoch from a seeded generator, no randomness elsewhere.

export interface TrainExample {
  feats: Map<number, number>;
  label: Classification;
}
export interface TrainOptions {
  bits: number;
  epochs: number;
  /** L2 penalty per example step. */
  l2: number;
  /** AdaGrad base step. */
  lr: number;
  seed: number;
}
// Chosen by leave-one-set-out cross-validation (`npm run eval:classify -- --cv`, docs/classifier.md); 2^14 buckets
// keep the shipped table at 80 KB (110 KB as base64).
export const DEFAULT_TRAIN: TrainOptions = { bits: 14, epochs: 50, l2: 1e-4, lr: 0.1, seed: 12 };

/**
 * How much the rules' cold or warm counts against the model (offline.ts rulesDecide() covers the other labels):
 * final = (1 - w)·p_model + w·[rules' label]. With 0.2 the rules' label stands unless the model prefers another by
 * more than a quarter of probability mass. Cross-validated on the four fresh sets with rules that had never seen
 * them: 0.1–0.3 score within half a point of each other (0 and 0.4 and up lose 1–4 points); 0.2 is the middle.
 */
export const RULE_WEIGHT = 0.2;

/** The combination the offline engine ships (and the cross-validation measures). */
export function combine(p: Record<Classification, number>, ruleLabel: Classification, ruleWeight = RULE_WEIGHT) {
  let best: Classification = ruleLabel;
  let bestScore = -1;
  const scores = {} as Record<Classification, number>;
  for (const l of CLASSIFICATIONS) {
    scores[l] = (1 - ruleWeight) * p[l] + (l === ruleLabel ? ruleWeight : 0);
    if (scores[l] > bestScore) [best, bestScore] = [l, scores[l]];
  }
  return { label: best, score: bestScore };
}

export function train(examples: TrainExample[], opts: TrainOptions = DEFAULT_TRAIN, note = ''): ModelData {
  const labels = [...CLASSIFICATIONS];
  const k = labels.length;
  const n = 1 << opts.bits;
  const W = new Float64Array(k * n);
  const G = new Float64Array(k * n).fill(1e-8);
  const bias = new Float64Array(k);
  const gb = new Float64Array(k).fill(1e-8);
  const data = examples.map((e) => ({ vec: [...hashFeatures(e.feats, opts.bits)], y: labels.indexOf(e.label) }));
  const order = data.map((_, i) => i);
  let seed = opts.seed >>> 0;
  const rand = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  for (let ep = 0; ep < opts.epochs; ep++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const idx of order) {
      const { vec, y } = data[idx];
      const z = new Array<number>(k);
      for (let c = 0; c < k; c++) {
        let s = bias[c];
        const off = c * n;
        for (const [b, x] of vec) s += W[off + b] * x;
        z[c] = s;
      }
      const p = softmax(labels, z);
      for (let c = 0; c < k; c++) {
        const g = p[labels[c]] - (c === y ? 1 : 0);
        gb[c] += g * g;
        bias[c] -= (opts.lr * g) / Math.sqrt(gb[c]);
        const off = c * n;
        for (const [b, x] of vec) {
          const gw = g * x + opts.l2 * W[off + b];
          G[off + b] += gw * gw;
          W[off + b] -= (opts.lr * gw) / Math.sqrt(G[off + b]);
        }
      }
    }
  }
  let max = 0;
  for (const v of W) max = Math.max(max, Math.abs(v));
  const scale = max > 0 ? max / 127 : 1;
  const q = new Int8Array(k * n);
  for (let i = 0; i < W.length; i++) q[i] = Math.max(-127, Math.min(127, Math.round(W[i] / scale)));
  return {
    version: 1,
    bits: opts.bits,
    labels,
    scale: Number(scale.toPrecision(6)),
    bias: [...bias].map((b) => Number(b.toFixed(4))),
    weights: toBase64(q),
    trainedOn: note,
  };
}
