// The recipe definition on its own: problem sentences, the patch language, the diff, and the published JSON Schema
// agreeing with the validator on a spread of definitions (both are generated from one zod definition).
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { applyStepChanges } from '../../lib/recipes/changes';
import { diffSteps } from '../../lib/recipes/diff';
import { recipeJsonSchema, validateDefinition } from '../../lib/recipes/schema';
import { STARTER_TEMPLATES } from '../../lib/recipes/templates';
import { LIBRARY_BY_KEY } from '../../lib/formulas/library';

const known = async (ref: string) => (LIBRARY_BY_KEY.has(ref) ? {} : null);

describe('validateDefinition', () => {
  it('names inherited property names as unknown step types instead of crashing', async () => {
    const r = await validateDefinition({ steps: [{ type: 'constructor' }, { type: 'toString' }, { type: '__proto__' }] });
    expect(r).toEqual({
      ok: false,
      problems: [
        'Step 1: unknown step type "constructor"; the types are vacancy_search, formula, question, find_email, dns_scan, signals.',
        'Step 2: unknown step type "toString"; the types are vacancy_search, formula, question, find_email, dns_scan, signals.',
        'Step 3: unknown step type "__proto__"; the types are vacancy_search, formula, question, find_email, dns_scan, signals.',
      ],
    });
  });

  it('names the definition-level problems and each step problem once, in step order', async () => {
    expect(await validateDefinition(null)).toEqual({ ok: false, problems: ['The definition must be an object with a "steps" list.'] });
    expect(await validateDefinition({ steps: 'x' })).toEqual({ ok: false, problems: ['The definition must have a "steps" list (1 to 30 steps).'] });
    const r = await validateDefinition({ steps: [{ type: 'signals', kinds: [] }, { type: 'question', column_key: 'q', output_type: 'text' }, 5], extra: 1 }, { resolveFormula: known });
    expect(r).toEqual({
      ok: false,
      problems: [
        'The definition has unknown field "extra"; it holds only "steps".',
        'Step 1 (signals): kinds needs at least 1 entry.',
        'Step 2 (question): question is missing.',
        'Step 3 must be an object with a "type".',
      ],
    });
  });

  it('accepts every starter template with the shared library, returning exactly the schema fields', async () => {
    for (const t of STARTER_TEMPLATES) {
      const r = await validateDefinition(t.definition, { resolveFormula: known });
      expect(r, t.name).toEqual({ ok: true, definition: t.definition });
    }
  });

  it('agrees with the published JSON Schema on what a single step may look like', async () => {
    const validate = new Ajv2020({ strict: false }).compile(recipeJsonSchema());
    const cases: unknown[] = [
      { steps: [{ type: 'dns_scan' }] },
      { steps: [{ type: 'dns_scan', x: 1 }] },
      { steps: [{ type: 'signals', kinds: ['funding', 'news'] }] },
      { steps: [{ type: 'signals', kinds: ['weather'] }] },
      { steps: [{ type: 'question', column_key: 'a_b', question: 'Why?', output_type: 'url' }] },
      { steps: [{ type: 'question', column_key: '1ab', question: 'Why?', output_type: 'url' }] },
      { steps: [{ type: 'vacancy_search', column_key: 'h', hiring_role: 'default' }] },
      { steps: [{ type: 'vacancy_search', column_key: 'h', hiring_role: 'legal' }] },
      { steps: [{ type: 'formula', column_key: 'f', formula: '' }] },
      { steps: [{ type: 'find_email' }], name: 'x' },
    ];
    for (const c of cases) expect(validate(c), JSON.stringify(c)).toBe((await validateDefinition(c)).ok);
  });
});

describe('step_changes', () => {
  const steps = [{ type: 'find_email' }, { type: 'dns_scan' }, { type: 'formula', column_key: 'a', formula: 'industry' }];
  it('applies changes in order, each to the steps the previous one left', () => {
    const r = applyStepChanges(steps, [
      { op: 'move', at: 3, to: 1 },
      { op: 'remove', at: 2 },
      { op: 'set', at: 1, fields: { formula: 'tech_stack' } },
      { op: 'add', step: { type: 'signals', kinds: ['news'] }, at: 1 },
    ]);
    expect(r).toEqual({ ok: true, steps: [{ type: 'signals', kinds: ['news'] }, { type: 'formula', column_key: 'a', formula: 'tech_stack' }, { type: 'dns_scan' }] });
  });
  it('refuses a prototype key in set', () => {
    const fields = JSON.parse('{"__proto__": {"type": "x"}}');
    expect(applyStepChanges(steps, [{ op: 'set', at: 1, fields }])).toEqual({ ok: false, problems: ['Change 1 (set): "__proto__" is not a step field.'] });
  });
});

describe('diffSteps', () => {
  it('reads an edited column step as changed and a moved one as moved', () => {
    const before = [{ type: 'find_email' }, { type: 'formula', column_key: 'a', formula: 'industry' }, { type: 'dns_scan' }];
    const after = [{ type: 'dns_scan' }, { type: 'find_email' }, { type: 'formula', column_key: 'a', formula: 'tech_stack' }];
    expect(diffSteps(before, after).map((d) => [d.change, d.before_step, d.after_step])).toEqual([
      ['moved', 3, 1],
      ['unchanged', 1, 2],
      ['changed', 2, 3],
    ]);
  });
});
