// The scored suggestion evaluation: runs an engine over a labelled fixture and scores every machine-checkable
// expectation as its own rule, so a report says "proposed time kept 38/40" rather than one blended number.
// Used by scripts/eval_suggest.ts (the report) and test/ai/suggest_eval.test.ts (the floors).

import type { LearnedExample, Medium, PreviousMessage, SuggestContext, SuggestInput, Suggestion } from '../types';
import { closingCount, hasAmount, hasPlaceholder, hasSlot, isInLanguage, keepsTime, lastLine, LENGTH, quotesAmount, type EvalLang } from './checks';

export interface EvalExpect {
  strategy?: string[];
  /** `YYYY-MM-DDTHH:MM`: the slot the prospect proposed (or picked from ours) is confirmed, nothing else offered. */
  time?: string;
  /** An amount from campaign_context that must be quoted. */
  price?: string;
  /** No amount at all: the context has none, so none may be invented. */
  no_price?: boolean;
  contains?: string[];
  absent?: string[];
  /** Specifics of a learned edit (another prospect's names, events, numbers) that must not appear. */
  leak?: string[];
  /** Wording of a learned edit that should carry over. */
  style?: string[];
  /** The sender's name closes the email. */
  signature?: string;
  /** No question and no proposed slot (a "no", an unsubscribe, an absence). */
  no_cta?: boolean;
  min?: number;
  max?: number;
}

export interface EvalCase {
  id: string;
  lang: EvalLang;
  label: string;
  reply: string;
  lead_name?: string;
  lead_email?: string;
  company?: string;
  context?: string;
  medium?: Medium;
  tone?: string;
  sender_name?: string;
  /** Key into fixture.previous. */
  previous?: string;
  /** Key into fixture.learned. */
  learned?: string;
  expect: EvalExpect;
}

/** A learned example is made the way production makes one: the engine drafts for `from`, a human edits that draft. */
export interface EvalLesson {
  from: { reply: string; lead_name?: string; company?: string; context?: string; medium?: Medium };
  edit: { greeting?: string; prepend?: string[]; append?: string[]; replace?: Array<[string, string]>; signoff?: string };
}

export interface EvalFixture {
  now: string;
  contexts: Record<string, string>;
  previous?: Record<string, PreviousMessage[]>;
  learned?: Record<string, EvalLesson>;
  cases: EvalCase[];
}

export type Engine = (input: SuggestInput, ctx: SuggestContext) => Suggestion;

export const RULES = [
  'language', 'strategy', 'time_kept', 'price_quoted', 'no_invented_price', 'answer', 'absent', 'no_leak',
  'learned_style', 'no_pushback', 'closing', 'signature', 'length',
] as const;
export type Rule = (typeof RULES)[number];

export interface CaseResult { id: string; lang: EvalLang; suggestion: string; strategy: string; failed: Array<{ rule: Rule; detail: string }>; checked: Rule[] }
export interface EvalReport { total: number; rules: Record<Rule, { passed: number; total: number }>; cases: CaseResult[]; allPassed: number }

function firstName(name?: string): string {
  return (name ?? '').trim().split(/\s+/)[0] ?? '';
}

/** Applies a human's edit to a draft: a new greeting, paragraphs added after the greeting or before the sign-off. */
export function applyHumanEdit(draft: string, lesson: EvalLesson): string {
  const e = lesson.edit;
  let paras = draft.split('\n\n');
  const greets = /^[^\n]{1,40}[,:!]$/.test(paras[0]);
  const last = paras[paras.length - 1];
  const signs = paras.length > 1 && last.length <= 60 && !/[.?]$/.test(last.split('\n')[0]);
  if (e.greeting && greets) paras[0] = e.greeting.replace('{first}', firstName(lesson.from.lead_name));
  if (e.append?.length) paras.splice(signs ? paras.length - 1 : paras.length, 0, e.append.join(' '));
  if (e.prepend?.length) paras.splice(greets ? 1 : 0, 0, e.prepend.join(' '));
  if (e.signoff) paras = signs ? [...paras.slice(0, -1), e.signoff] : [...paras, e.signoff];
  let out = paras.join('\n\n');
  for (const [a, b] of e.replace ?? []) out = out.replace(a, b);
  return out;
}

export function lessonsFor(fx: EvalFixture, key: string | undefined, engine: Engine, now: Date): LearnedExample[] {
  if (!key) return [];
  const lesson = fx.learned?.[key];
  if (!lesson) throw new Error(`unknown learned set ${key}`);
  const f = lesson.from;
  const medium = f.medium ?? 'email';
  const original = engine(
    { reply_received: f.reply, lead_name: f.lead_name, company: f.company, campaign_context: f.context ? fx.contexts[f.context] : undefined, medium },
    { learned: [], now },
  ).suggestion;
  return [{ replyText: f.reply, original, edited: applyHumanEdit(original, lesson), medium }];
}

export function inputOf(fx: EvalFixture, c: EvalCase): SuggestInput {
  return {
    reply_received: c.reply,
    lead_name: c.lead_name,
    lead_email: c.lead_email,
    company: c.company,
    campaign_context: c.context ? fx.contexts[c.context] : undefined,
    medium: c.medium,
    tone: c.tone,
    sender_name: c.sender_name,
    previous_messages: c.previous ? fx.previous?.[c.previous] : undefined,
  };
}

const has = (text: string, s: string) => text.toLowerCase().includes(s.toLowerCase());

export function checkCase(c: EvalCase, s: Suggestion): Pick<CaseResult, 'failed' | 'checked'> {
  const x = c.expect;
  const text = s.suggestion;
  const medium = c.medium ?? 'email';
  const failed: CaseResult['failed'] = [];
  const checked: Rule[] = [];
  const rule = (r: Rule, ok: boolean, detail = '') => {
    checked.push(r);
    if (!ok) failed.push({ rule: r, detail });
  };
  const lang = isInLanguage(text, c.lang);
  rule('language', lang.ok, lang.detail);
  const strategy = s.strategy.replace(/\+learned$/, '');
  if (x.strategy) rule('strategy', x.strategy.includes(strategy), strategy);
  if (x.time) {
    const t = keepsTime(text, x.time, c.lang);
    rule('time_kept', t.ok, t.detail);
  }
  if (x.price) rule('price_quoted', quotesAmount(text, x.price), `missing ${x.price}`);
  if (x.no_price) rule('no_invented_price', !hasAmount(text));
  if (x.contains) rule('answer', x.contains.every((w) => has(text, w)), `missing ${x.contains.filter((w) => !has(text, w)).join(', ')}`);
  if (x.absent) rule('absent', !x.absent.some((w) => has(text, w)), `has ${x.absent.filter((w) => has(text, w)).join(', ')}`);
  if (x.leak) rule('no_leak', !x.leak.some((w) => has(text, w)), `leaked ${x.leak.filter((w) => has(text, w)).join(', ')}`);
  if (x.style) rule('learned_style', x.style.every((w) => has(text, w)), `missing ${x.style.filter((w) => !has(text, w)).join(', ')}`);
  if (x.no_cta) rule('no_pushback', !/[?¿]/.test(text) && !hasSlot(text));
  const closings = closingCount(text);
  rule('closing', closings <= 1 && !hasPlaceholder(text), `closings=${closings}`);
  if (x.signature) rule('signature', lastLine(text) === x.signature, `last line "${lastLine(text)}"`);
  const [min, max] = [x.min ?? LENGTH[medium][0], x.max ?? LENGTH[medium][1]];
  rule('length', text.length >= min && text.length <= max, `${text.length} chars`);
  return { failed, checked };
}

export function runEval(fx: EvalFixture, engine: Engine): EvalReport {
  const now = new Date(fx.now);
  const rules = Object.fromEntries(RULES.map((r) => [r, { passed: 0, total: 0 }])) as EvalReport['rules'];
  const cases: CaseResult[] = [];
  for (const c of fx.cases) {
    const learned = lessonsFor(fx, c.learned, engine, now);
    const s = engine(inputOf(fx, c), { learned, now });
    const { failed, checked } = checkCase(c, s);
    for (const r of checked) {
      rules[r].total++;
      if (!failed.some((f) => f.rule === r)) rules[r].passed++;
    }
    cases.push({ id: c.id, lang: c.lang, suggestion: s.suggestion, strategy: s.strategy, failed, checked });
  }
  return { total: cases.length, rules, cases, allPassed: cases.filter((c) => c.failed.length === 0).length };
}
