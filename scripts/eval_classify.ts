// Offline classifier report on the labelled reply set: `npm run eval:classify`.
import { readFileSync } from 'node:fs';
import { evaluate, type LabelledReply } from '../lib/classify/eval';
import { CLASSIFICATIONS } from '../lib/classify/types';

const file = new URL('../test/fixtures/replies.labelled.json', import.meta.url);
const cases = JSON.parse(readFileSync(file, 'utf8')) as LabelledReply[];

evaluate(cases); // warm-up pass so the timing reflects steady state, not regex compilation
const t0 = performance.now();
const r = evaluate(cases);
const ms = performance.now() - t0;

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const pad = (s: string | number, n: number) => String(s).padStart(n);

console.log(`Offline classifier on ${r.total} labelled replies (${(ms / r.total).toFixed(3)} ms/reply)`);
console.log(`Accuracy: ${pct(r.accuracy)} (${r.correct}/${r.total})\n`);

console.log(`${'label'.padEnd(15)}${pad('precision', 10)}${pad('recall', 10)}${pad('support', 9)}`);
for (const l of CLASSIFICATIONS) {
  const p = r.perLabel[l];
  console.log(`${l.padEnd(15)}${pad(pct(p.precision), 10)}${pad(pct(p.recall), 10)}${pad(p.support, 9)}`);
}

const w = 15;
console.log(`\nConfusion matrix (rows = expected, columns = predicted)`);
console.log(''.padEnd(w) + CLASSIFICATIONS.map((c) => pad(c, w)).join(''));
for (const e of CLASSIFICATIONS) {
  console.log(e.padEnd(w) + CLASSIFICATIONS.map((p) => pad(r.confusion[e][p], w)).join(''));
}

console.log(`\nMisclassified (${r.misses.length}):`);
for (const m of r.misses) {
  const snippet = m.text.replace(/\s+/g, ' ').slice(0, 140);
  console.log(`  #${m.index} expected=${m.expected} got=${m.got} signals=[${m.signals.join(', ')}]\n     "${snippet}"`);
}
