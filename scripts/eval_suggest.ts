// Scored evaluation of the offline suggestion engine: `npm run eval:suggest`.
// Prints the score of every rule on the tuning set (test/fixtures/suggest_eval.json) and on the fresh set
// (test/fixtures/suggest_eval.fresh.json, never used for tuning), then the failures.
//   --failures       also list each failed check with the draft
//   --sample         print the markdown sample instead (docs/eval_suggest.sample.md):
//                    npm run -s eval:suggest -- --sample > docs/eval_suggest.sample.md

import { existsSync, readFileSync } from 'node:fs';
import { suggestOffline } from '../lib/ai/offline_engine';
import { RULES, runEval, type EvalFixture, type EvalReport } from '../lib/ai/eval/run';
import { renderSample } from '../lib/ai/eval/sample';

const load = (name: string): EvalFixture | null => {
  const url = new URL(`../test/fixtures/${name}`, import.meta.url);
  return existsSync(url) ? (JSON.parse(readFileSync(url, 'utf8')) as EvalFixture) : null;
};

const sets: Array<[string, EvalFixture | null]> = [
  ['tuning set (suggest_eval.json)', load('suggest_eval.json')],
  ['fresh set (suggest_eval.fresh.json, not used for tuning)', load('suggest_eval.fresh.json')],
];
const args = new Set(process.argv.slice(2));
const pct = (p: number, t: number) => (t ? `${((100 * p) / t).toFixed(1)}%` : '—');

if (args.has('--sample')) {
  const fx = sets[0][1];
  if (!fx) throw new Error('test/fixtures/suggest_eval.json is missing');
  const fresh = sets[1][1];
  console.log(renderSample(fx, runEval(fx, suggestOffline), fresh ? runEval(fresh, suggestOffline) : undefined));
} else {
  for (const [name, fx] of sets) {
    if (!fx) {
      console.log(`${name}: missing\n`);
      continue;
    }
    const r: EvalReport = runEval(fx, suggestOffline);
    console.log(`${name}: ${r.total} cases, ${r.allPassed} pass every check (${pct(r.allPassed, r.total)})`);
    for (const rule of RULES) {
      const { passed, total } = r.rules[rule];
      if (total) console.log(`  ${rule.padEnd(18)} ${pct(passed, total).padStart(6)}  (${passed}/${total})`);
    }
    const byLang = new Map<string, [number, number]>();
    for (const c of r.cases) {
      const [p, t] = byLang.get(c.lang) ?? [0, 0];
      byLang.set(c.lang, [p + (c.failed.length ? 0 : 1), t + 1]);
    }
    console.log(`  all checks by language: ${[...byLang].map(([l, [p, t]]) => `${l} ${p}/${t}`).join(', ')}`);
    const failures = r.cases.filter((c) => c.failed.length);
    if (failures.length) {
      console.log(`  failed: ${failures.map((c) => `${c.id} (${c.failed.map((f) => f.rule).join(', ')})`).join('; ')}`);
    }
    if (args.has('--failures')) {
      for (const c of failures) {
        console.log(`\n  --- ${c.id} [${c.strategy}] ${c.failed.map((f) => `${f.rule}: ${f.detail}`).join(' | ')}`);
        console.log(c.suggestion.split('\n').map((l) => `    | ${l}`).join('\n'));
      }
    }
    console.log('');
  }
}
