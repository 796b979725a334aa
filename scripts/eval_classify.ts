// Offline classifier report: `npm run eval:classify [--misses]`. Scores the tuning set (replies.labelled.json, the
// rules were written on it) and the fresh sets written after it (replies.fresh*.json), each with per-label
// precision/recall; misclassified replies are listed for the fresh sets (all sets with --misses).
import { existsSync, readFileSync } from 'node:fs';
import { evaluate, type LabelledReply } from '../lib/classify/eval';
import { CLASSIFICATIONS } from '../lib/classify/types';

const SETS: [string, string][] = [
  ['tuning set', 'replies.labelled.json'],
  ['fresh set', 'replies.fresh.json'],
  ['second fresh set', 'replies.fresh2.json'],
  ['third fresh set', 'replies.fresh3.json'],
  ['fourth fresh set', 'replies.fresh4.json'],
];
const showAllMisses = process.argv.includes('--misses');

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const pad = (s: string | number, n: number) => String(s).padStart(n);

for (const [title, name] of SETS) {
  const file = new URL(`../test/fixtures/${name}`, import.meta.url);
  if (!existsSync(file)) continue;
  const cases = JSON.parse(readFileSync(file, 'utf8')) as LabelledReply[];
  evaluate(cases); // warm-up pass so the timing reflects steady state, not regex compilation
  const t0 = performance.now();
  const r = evaluate(cases);
  const ms = performance.now() - t0;

  console.log(`\n=== ${title}: ${name} — ${r.total} replies (${(ms / r.total).toFixed(3)} ms/reply)`);
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
  if (name === 'replies.labelled.json' && !showAllMisses) {
    console.log(`\nMisclassified: ${r.misses.length} (list them with --misses)`);
    continue;
  }
  console.log(`\nMisclassified (${r.misses.length}):`);
  for (const m of r.misses) {
    const snippet = m.text.replace(/\s+/g, ' ').slice(0, 140);
    console.log(`  #${m.index} expected=${m.expected} got=${m.got} signals=[${m.signals.join(', ')}]\n     "${snippet}"`);
  }
}
