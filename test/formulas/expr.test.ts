// The expression language and the shared library, without a database: syntax errors name the problem, messy data
// never throws, the library's formulas all parse and read only functions that exist, and equal inputs give equal
// outputs. Nothing here may reach eval or new Function (Workers forbid them): both are poisoned while it runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askOffline } from '../../lib/ai/ask_offline';
import { cellOf } from '../../lib/formulas/cell';
import { evaluateExpression } from '../../lib/formulas/evaluate';
import { checkExpression, evaluate } from '../../lib/formulas/expr/run';
import { cleanCompany, departmentOf, nameCase, seniorityOf } from '../../lib/formulas/expr/lead_text';
import { LIBRARY } from '../../lib/formulas/library';
import type { PoolLeadRow } from '../../lib/pool/view';

const NOW = new Date('2026-03-10T09:00:00Z');
const run = (src: string, fields: Record<string, unknown> = {}) => evaluate(checkExpression(src).tree, { get: (n) => (fields[n] ?? null) as never, now: NOW });

const lead = (over: Partial<PoolLeadRow> = {}): PoolLeadRow =>
  ({
    id: '00000000-0000-4000-8000-000000000001', orgId: 'o', clientId: 'c', email: 'anna.schmidt@mueller-bau.de', emailStatus: 'valid', firstName: 'ANNA', lastName: 'schmidt', fullName: null,
    company: 'Müller Bau GmbH', domain: 'mueller-bau.de', website: 'https://www.mueller-bau.de/kontakt', title: 'Head of Sales', linkedinUrl: 'https://linkedin.com/in/anna', companyLinkedinUrl: null,
    country: 'Germany', city: 'Berlin', state: null, volumeBand: null, monthlyVolume: null, mailType: null, currentSender: null, hook: null, namedAccount: null, sendsForCustomers: null,
    note: null, icpId: null, status: 'new', custom: {}, provenance: {}, personKey: null, importId: null, createdAt: NOW, updatedAt: NOW, ...over,
  }) as PoolLeadRow;

const poisoned: { eval?: unknown; Function?: unknown } = {};
beforeAll(() => {
  poisoned.eval = globalThis.eval;
  poisoned.Function = globalThis.Function;
  (globalThis as Record<string, unknown>).eval = () => {
    throw new Error('eval is forbidden');
  };
});
afterAll(() => {
  (globalThis as Record<string, unknown>).eval = poisoned.eval;
});

describe('expression language', () => {
  it('evaluates arithmetic, text, comparisons, null-safety and precedence', () => {
    expect(run('1 + 2 * 3')).toBe(7);
    expect(run('(1 + 2) * 3')).toBe(9);
    expect(run('"a" + 1')).toBe('a1');
    expect(run('missing + " x"')).toBe(' x');
    expect(run('missing * 2')).toBe(null);
    expect(run('10 / 0')).toBe(null);
    expect(run('missing > 3')).toBe(false);
    expect(run('"B" == "b"')).toBe(true);
    expect(run('x ?? "fallback"', { x: '' })).toBe('fallback');
    expect(run('a > 1 && b || c', { a: 2, b: 0, c: 'yes' })).toBe(true);
    expect(run('not (1 < 2) or false')).toBe(false);
    expect(run('t in ["vp", "c_level"]', { t: 'VP' })).toBe(true);
    expect(run('"ell" in "Hello"')).toBe(true);
    expect(run('n >= 10 ? "big" : "small"', { n: '12' })).toBe('big');
    expect(run('if(false, 1 / 0, "no")')).toBe('no');
    expect(run('-n + 1', { n: 3 })).toBe(-2);
  });

  it('refuses broken expressions with a sentence naming the problem', () => {
    expect(() => checkExpression('1 +')).toThrow(/ends too early/);
    expect(() => checkExpression('lower(a, b)')).toThrow(/lower\(\) takes 1 argument, not 2/);
    expect(() => checkExpression('nope(1)')).toThrow(/unknown function nope\(\)/);
    expect(() => checkExpression('"open')).toThrow(/not closed/);
    expect(() => checkExpression('a.b')).toThrow(/unexpected character "\."/);
    expect(() => checkExpression('constructor.constructor("x")()')).toThrow();
    expect(() => checkExpression('('.repeat(100) + '1' + ')'.repeat(100))).toThrow(/nested too deeply/);
    expect(() => checkExpression('1'.repeat(2001))).toThrow(/longer than/);
  });

  it('reads lead text the way agencies need it', () => {
    expect(seniorityOf('VP Marketing')).toBe('vp');
    expect(seniorityOf('Co-Founder & CEO')).toBe('c_level');
    expect(seniorityOf('Software Engineer')).toBe('individual');
    expect(departmentOf('Senior Account Executive')).toBe('sales');
    expect(cleanCompany('ACME Software GmbH & Co. KG')).toBe('ACME Software');
    expect(cleanCompany('Globex, Inc.')).toBe('Globex');
    expect(nameCase("JOHN o'neil-SMITH")).toBe("John O'Neil-Smith");
    expect(nameCase('anna VAN DER berg')).toBe('Anna van der Berg');
    expect(run('domain_of(w)', { w: 'https://www.Acme.com/about' })).toBe('acme.com');
    expect(run('is_generic_email("info@acme.com")')).toBe(true);
    expect(run('is_freemail("kim@gmail.com")')).toBe(true);
    expect(run('greeting("anna", "Germany")')).toBe('Hallo Anna,');
    expect(run('country_timezone("NL")')).toBe('Europe/Amsterdam');
    expect(run('size_band(120)')).toBe('51-200');
  });

  it('stores a value as its column type, empty when there is nothing', () => {
    expect(cellOf('yes', 'boolean')).toEqual({ status: 'written', value: true });
    expect(cellOf('maybe', 'boolean')).toEqual({ status: 'empty' });
    expect(cellOf('1,200', 'number')).toEqual({ status: 'written', value: 1200 });
    expect(cellOf('acme.com', 'url')).toEqual({ status: 'written', value: 'https://acme.com' });
    expect(cellOf('', 'text')).toEqual({ status: 'empty' });
    expect(cellOf([], 'text')).toEqual({ status: 'empty' });
  });
});

describe('shared library', () => {
  it('holds at least 30 formulas, each with a unique key, goals and a checked spec', () => {
    expect(LIBRARY.length).toBeGreaterThanOrEqual(30);
    expect(new Set(LIBRARY.map((f) => f.key)).size).toBe(LIBRARY.length);
    for (const f of LIBRARY) {
      expect(f.goals.length, f.key).toBeGreaterThan(0);
      if (f.kind === 'expression') expect(() => checkExpression(String(f.spec.expression)), f.key).not.toThrow();
      if (f.kind === 'lookup' && f.spec.expression) expect(() => checkExpression(String(f.spec.expression)), f.key).not.toThrow();
      if (f.kind === 'question') expect(String(f.spec.question)).toMatch(/\?$/);
      expect(f.credit_cost, f.key).toBe(f.kind === 'expression' ? 0 : 1);
    }
  });

  it('gives equal outputs for equal inputs, on every expression formula', () => {
    for (const f of LIBRARY.filter((x) => x.kind === 'expression')) {
      const a = evaluateExpression(String(f.spec.expression), lead(), NOW);
      const b = evaluateExpression(String(f.spec.expression), lead(), NOW);
      expect(a, f.key).toEqual(b);
    }
    const l = lead();
    expect(evaluateExpression('personalised_first_line_missing ?? seniority(title)', l, NOW)).toBe('vp');
    expect(evaluateExpression(String(LIBRARY.find((f) => f.key === 'personalised_first_line')!.spec.expression), l, NOW)).toBe('Hi Anna, I saw you work as head of sales at Müller Bau.');
    expect(evaluateExpression(String(LIBRARY.find((f) => f.key === 'greeting')!.spec.expression), l, NOW)).toBe('Hallo Anna,');
    expect(evaluateExpression('company_domain', lead({ domain: null }), NOW)).toBe('mueller-bau.de');
  });

  it('the offline engine answers questions deterministically from the facts', () => {
    const facts = { company: 'Acme Software', industry: 'Computer Software', country: 'Germany' };
    expect(askOffline('Does Acme Software sell to businesses (B2B)?', facts)).toEqual(askOffline('Does Acme Software sell to businesses (B2B)?', { ...facts }));
    expect(askOffline('Does Acme Software sell to businesses (B2B)?', facts).answer).toBe('yes');
    expect(askOffline('What industry is Acme Software in?', facts)).toEqual({ answer: 'Computer Software', confidence: 0.8 });
    expect(askOffline('What is the weather like?', facts)).toEqual({ answer: '', confidence: 0 });
  });
});
