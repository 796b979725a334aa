// Features for the learned layer (lib/classify/model.ts). They run on the same text the rules see: the prospect's
// own words after quote stripping, normalised (lower-case, no diacritics) and without the sign-off. Each feature is
// a string hashed into a fixed number of buckets, so the shipped model is a flat weight table whose size does not
// grow with the vocabulary, and a word never seen in training costs nothing.

/** FNV-1a, 32 bit: tiny, deterministic, the same in Node and Workers. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

// Words, with a "?" kept as a token of its own: a question is evidence (warm curiosity, cold confusion).
const TOKEN = /[a-z0-9]+(?:'[a-z]+)?|\?/g;
// Char n-grams are the part that generalises across languages and spelling ("interess", "urlaub", "vacacion");
// long replies are capped so the cost per reply stays bounded.
const MAX_CHARS = 1500;

export interface FeatureInput {
  /** Normalised own text (offline.ts: dropSignoff(normalise(stripQuoted(body)))). */
  own: string;
  /** Normalised subject, '' when none. */
  subject: string;
  /** Names of the rule signals that fired, and the label the rules chose. */
  signals: string[];
  ruleLabel: string;
}

/**
 * Features as 32-bit hashes of their names ("w:word", "b:w1 w2", "c:ngr", "s:subjectword", "sig:name", "rule:label")
 * with a weight each; groups are scaled so that none dominates by sheer count. Char n-grams are hashed as they are
 * read, without building strings: they are most of the features and this keeps a reply well under 0.1 ms.
 */
export function extractFeatures(x: FeatureInput): Map<number, number> {
  const out = new Map<number, number>();
  const add = (h: number, w: number) => out.set(h, (out.get(h) ?? 0) + w);
  const text = x.own.slice(0, MAX_CHARS);
  const words = text.match(TOKEN) ?? [];

  const wordFeats = new Set<number>();
  for (let i = 0; i < words.length; i++) {
    wordFeats.add(fnv1a('w:' + words[i]));
    wordFeats.add(fnv1a('b:' + (i === 0 ? '^' : words[i - 1]) + ' ' + words[i]));
  }
  if (words.length) wordFeats.add(fnv1a('b:' + words[words.length - 1] + ' $'));
  addGroup(wordFeats, add, 1);

  const chars = new Set<number>();
  const padded = ' ' + words.join(' ') + ' ';
  const seed = fnv1a('c:');
  for (let i = 0; i + 3 <= padded.length; i++) {
    let h = seed;
    for (let j = 0; j < 5 && i + j < padded.length; j++) {
      h ^= padded.charCodeAt(i + j);
      h = Math.imul(h, 0x01000193);
      if (j >= 2) chars.add(h >>> 0);
    }
  }
  addGroup(chars, add, 1);

  const meta = new Set<number>([fnv1a('len:' + Math.min(6, Math.floor(Math.log2(1 + words.length))))]);
  if (x.subject) for (const w of x.subject.match(TOKEN) ?? []) meta.add(fnv1a('s:' + w));
  addGroup(meta, add, 0.5);

  // Rule evidence: every signal name and the rules' verdict. Kept unscaled so a single strong signal counts.
  for (const s of x.signals) add(fnv1a('sig:' + s), 1);
  if (x.ruleLabel) add(fnv1a('rule:' + x.ruleLabel), 1);
  return out;
}

// Binary presence, then L2-normalised within the group: a 300-word reply and a 3-word reply weigh the same.
function addGroup(feats: Set<number>, add: (h: number, w: number) => void, scale: number): void {
  if (!feats.size) return;
  const w = scale / Math.sqrt(feats.size);
  for (const f of feats) add(f, w);
}

/** Folds the 32-bit feature hashes into 2^bits buckets: bucket index → value. */
export function hashFeatures(feats: Map<number, number>, bits: number): Map<number, number> {
  const mask = (1 << bits) - 1;
  const v = new Map<number, number>();
  for (const [f, w] of feats) {
    const b = f & mask;
    v.set(b, (v.get(b) ?? 0) + w);
  }
  return v;
}
