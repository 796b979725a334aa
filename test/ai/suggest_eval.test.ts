// Floors for the scored suggestion evaluation (npm run eval:suggest). The tuning set was used to write the
// engine, so its floors are high; the fresh set was written before the last tuning round and never tuned on,
// so its floors are lower and say what to expect on traffic the rules were not written for.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { closingCount, isInLanguage, keepsTime } from '../../lib/ai/eval/checks';
import { RULES, runEval, type EvalFixture, type EvalReport, type Rule } from '../../lib/ai/eval/run';
import { suggestOffline } from '../../lib/ai/offline_engine';

const load = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')) as EvalFixture;
const tuning = load('suggest_eval.json');
const fresh = load('suggest_eval.fresh.json');
const score = (r: EvalReport, rule: Rule) => r.rules[rule].passed / r.rules[rule].total;

describe('suggestion evaluation: the labelled sets', () => {
  it('has at least 150 tuning and 50 fresh cases across five languages and every intent', () => {
    expect(tuning.cases.length).toBeGreaterThanOrEqual(150);
    expect(fresh.cases.length).toBeGreaterThanOrEqual(50);
    for (const fx of [tuning, fresh]) {
      for (const lang of ['en', 'de', 'fr', 'es', 'nl']) expect(fx.cases.filter((c) => c.lang === lang).length).toBeGreaterThanOrEqual(fx === tuning ? 30 : 10);
      expect(new Set(fx.cases.map((c) => c.label))).toEqual(new Set(['hot', 'warm', 'cold', 'not_interested', 'ooo']));
      expect(fx.cases.filter((c) => c.expect.time).length).toBeGreaterThanOrEqual(fx === tuning ? 25 : 8);
      expect(fx.cases.filter((c) => c.learned).length).toBeGreaterThanOrEqual(5);
    }
    const ids = [...tuning.cases, ...fresh.cases].map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('the checks catch the drafts the issue reported', () => {
    const englishForGerman = 'Hi Markus,\n\nGood question — let me check and come back to you shortly.\n\nWould Monday 23 November at 10:00 or Wednesday 25 November at 11:30 (your time) work?\n\nBest,';
    expect(isInLanguage(englishForGerman, 'de').ok).toBe(false);
    expect(keepsTime(englishForGerman, '2026-11-24T14:00', 'de').ok).toBe(false);
    expect(closingCount("Hi Stefan,\n\nThanks for letting me know. I won't follow up on this.\n\nAll the best.\n\nBest,")).toBe(2);
    expect(keepsTime('Hallo Markus,\n\nDienstag, 24. November um 14:00 (Ihre Ortszeit) passt mir sehr gut.', '2026-11-24T14:00', 'de').ok).toBe(true);
  });
});

describe('suggestion evaluation: floors', () => {
  const t = runEval(tuning, suggestOffline);
  const f = runEval(fresh, suggestOffline);

  it('tuning set: every rule ≥ 95 %, no leaked fact and no doubled closing at all', () => {
    for (const rule of RULES) if (t.rules[rule].total) expect(score(t, rule), rule).toBeGreaterThanOrEqual(0.95);
    expect(score(t, 'no_leak')).toBe(1);
    expect(score(t, 'closing')).toBe(1);
    expect(t.allPassed / t.total).toBeGreaterThanOrEqual(0.95);
  });

  it('fresh set: lower floors, but never a leaked fact or a doubled closing', () => {
    expect(f.allPassed / f.total).toBeGreaterThanOrEqual(0.75);
    expect(score(f, 'no_leak')).toBe(1);
    expect(score(f, 'closing')).toBe(1);
    expect(score(f, 'language')).toBeGreaterThanOrEqual(0.9);
    expect(score(f, 'price_quoted')).toBeGreaterThanOrEqual(0.9);
    expect(score(f, 'no_invented_price')).toBe(1);
    expect(score(f, 'time_kept')).toBeGreaterThanOrEqual(0.7);
    expect(score(f, 'strategy')).toBeGreaterThanOrEqual(0.8);
  });

  it('is deterministic: the same fixture gives the same drafts', () => {
    expect(runEval(tuning, suggestOffline).cases.map((c) => c.suggestion)).toEqual(t.cases.map((c) => c.suggestion));
  });
});
