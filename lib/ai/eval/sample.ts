// Markdown rendering of an evaluation run, for a person to read next to the scores (docs/eval_suggest.sample.md).

import { RULES, type EvalFixture, type EvalReport } from './run';

const quote = (s: string) => s.split('\n').map((l) => `> ${l}`).join('\n');

export function renderSample(fx: EvalFixture, r: EvalReport, fresh?: EvalReport): string {
  const cell = (x: EvalReport | undefined, k: (typeof RULES)[number]) => (x && x.rules[k].total ? `${x.rules[k].passed}/${x.rules[k].total}` : '—');
  const out: string[] = [
    '# Offline suggestion engine — eval sample',
    '',
    `Fixed now = ${fx.now} (a Friday). Below: every draft of \`test/fixtures/suggest_eval.json\` (the tuning set, ${r.total} cases).`,
    'Regenerate with `npm run -s eval:suggest -- --sample > docs/eval_suggest.sample.md`; scores: `npm run eval:suggest`.',
    '',
    '| rule | tuning set | fresh set (never tuned on) |',
    '|---|---|---|',
    ...RULES.map((k) => `| ${k} | ${cell(r, k)} | ${cell(fresh, k)} |`),
    `| **every check of a case** | ${r.allPassed}/${r.total} | ${fresh ? `${fresh.allPassed}/${fresh.total}` : '—'} |`,
    '',
  ];
  for (const [i, c] of fx.cases.entries()) {
    const res = r.cases[i];
    out.push(
      `## ${i + 1}. \`${c.id}\` — ${c.lang}, ${c.medium ?? 'email'}${c.tone ? `, ${c.tone}` : ''}`,
      '',
      `Lead: ${c.lead_name ?? '(no name)'}${c.company ? ` at ${c.company}` : ''} · context: ${c.context ?? '(none)'}${c.sender_name ? ` · sender: ${c.sender_name}` : ''}${c.learned ? ` · learned: ${c.learned}` : ''}`,
      '',
      quote(c.reply),
      '',
      `Draft — \`${res.strategy}\`${res.failed.length ? ` — **failed: ${res.failed.map((f) => `${f.rule} (${f.detail})`).join('; ')}**` : ''}`,
      '',
      '```text',
      res.suggestion,
      '```',
      '',
    );
  }
  return out.join('\n');
}
