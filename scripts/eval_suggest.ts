// Prints every reply in test/fixtures/suggest_cases.json next to the offline
// engine's draft so a person can judge whether an SDR would send it.
// Usage: npm run -s eval:suggest > docs/eval_suggest.sample.md

import { readFileSync } from 'node:fs';
import { classifyOffline } from '../lib/classify/offline';
import { stripQuoted } from '../lib/classify/strip_quoted';
import { createOfflineEngine } from '../lib/ai/offline_engine';
import type { LearnedExample, Medium, PreviousMessage, SuggestInput } from '../lib/ai/types';

interface Case {
  id: string;
  reply: string;
  lead_name?: string;
  lead_email?: string;
  company?: string;
  context?: string;
  medium?: Medium;
  tone?: string;
  previous?: PreviousMessage[];
  /** Key into fixture.learned: human-edited drafts the engine may learn from. */
  learned?: string;
}

interface Fixture { now: string; contexts: Record<string, string>; learned?: Record<string, LearnedExample[]>; cases: Case[] }

const fixture = JSON.parse(readFileSync(new URL('../test/fixtures/suggest_cases.json', import.meta.url), 'utf8')) as Fixture;
const now = new Date(fixture.now);
const engine = createOfflineEngine();

const quote = (s: string) => s.split('\n').map((l) => `> ${l}`).join('\n');

const out: string[] = [
  '# Offline suggestion engine — eval sample',
  '',
  `Model \`${engine.model}\`, fixed now = ${fixture.now} (a Friday), ${fixture.cases.length} cases from \`test/fixtures/suggest_cases.json\`.`,
  'Regenerate with `npm run -s eval:suggest > docs/eval_suggest.sample.md`.',
  '',
  '## Campaign contexts',
  '',
  ...Object.entries(fixture.contexts).flatMap(([k, v]) => [`**${k}**`, '', quote(v), '']),
];

const strategies = new Map<string, number>();
for (const [i, c] of fixture.cases.entries()) {
  const input: SuggestInput = {
    reply_received: c.reply,
    lead_name: c.lead_name,
    lead_email: c.lead_email,
    company: c.company,
    campaign_context: c.context ? fixture.contexts[c.context] : undefined,
    medium: c.medium,
    tone: c.tone,
    previous_messages: c.previous,
  };
  const learned = c.learned ? fixture.learned?.[c.learned] ?? [] : [];
  const s = await engine.suggest(input, { learned, now });
  const plain = learned.length ? await engine.suggest(input, { learned: [], now }) : null;
  const cls = classifyOffline(stripQuoted(c.reply));
  strategies.set(s.strategy, (strategies.get(s.strategy) ?? 0) + 1);
  const who = [c.lead_name ?? '(no name)', c.company ? `at ${c.company}` : null].filter(Boolean).join(' ');
  out.push(
    `## ${i + 1}. \`${c.id}\` — ${s.medium}, tone: ${c.tone ?? '(none)'}`,
    '',
    `Lead: ${who} · context: ${c.context ?? '(none)'} · classifier: ${cls.classification} (${cls.confidence})`,
    '',
  );
  for (const m of c.previous ?? []) out.push(`Earlier ${m.role}:`, '', quote(m.content), '');
  for (const ex of learned) {
    out.push(`Learned example (${ex.medium}) — reply ${JSON.stringify(ex.replyText)}; the human sent:`, '', '```text', ex.edited, '```', '');
  }
  out.push(
    'Reply:',
    '',
    quote(c.reply),
    '',
    `Suggestion — strategy \`${s.strategy}\`, confidence **${s.confidence}**, ${s.suggestion.length} chars:`,
    '',
    '```text',
    s.suggestion,
    '```',
    '',
  );
  if (plain) {
    const same = plain.suggestion === s.suggestion;
    out.push(same ? '_Without the learned example the draft is identical (unrelated reply)._' : `Without the learned example (strategy \`${plain.strategy}\`):`, '');
    if (!same) out.push('```text', plain.suggestion, '```', '');
  }
}

out.push('## Strategies used', '', ...[...strategies].sort().map(([k, n]) => `- \`${k}\`: ${n}`), '');
console.log(out.join('\n'));
