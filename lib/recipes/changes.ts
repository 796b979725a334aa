import { z } from 'zod';
import { RECIPE_LIMITS } from './schema';

// update_recipe's patch language. Steps are numbered from 1 as in every problem sentence ("Step 2 (formula): …").
// Changes apply in order, each to the steps as the previous change left them, so a model can say what it sees.

const at = z.number().int().min(1).max(RECIPE_LIMITS.max_steps + 1).describe('a step number, counting from 1');
const step = z.record(z.string(), z.unknown()).describe('a whole step (get_recipe_schema describes the step types)');

export const StepChangeSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('add'), step, at: at.optional().describe('where the new step goes (it becomes this step number); default: at the end') }).strict(),
  z.object({ op: z.literal('remove'), at }).strict(),
  z.object({ op: z.literal('replace'), at, step }).strict(),
  z.object({ op: z.literal('set'), at, fields: z.record(z.string(), z.unknown()).describe('fields to change in the step, e.g. { "formula": "industry" }; null removes a field') }).strict(),
  z.object({ op: z.literal('move'), at, to: at.describe('the step number it gets') }).strict(),
]);
export type StepChange = z.infer<typeof StepChangeSchema>;

export const STEP_CHANGE_OPS = {
  add: 'insert `step` so it becomes step `at` (default: append)',
  remove: 'delete step `at`',
  replace: 'put `step` in place of step `at`',
  set: 'change some fields of step `at` (`fields`; null removes a field)',
  move: 'move step `at` so it becomes step `to`',
} as const;

type Step = Record<string, unknown>;

/** The steps after the changes, or one sentence per change that cannot apply. */
export function applyStepChanges(steps: readonly Step[], changes: readonly StepChange[]): { ok: true; steps: Step[] } | { ok: false; problems: string[] } {
  const out = steps.map((s) => ({ ...s }));
  const problems: string[] = [];
  const missing = (i: number, c: StepChange, n: number) => `Change ${i} (${c.op}): there is no step ${n}; the recipe has ${out.length} step${out.length === 1 ? '' : 's'} at that point.`;
  changes.forEach((c, idx) => {
    const i = idx + 1;
    switch (c.op) {
      case 'add': {
        const pos = c.at ?? out.length + 1;
        if (pos > out.length + 1) return problems.push(`Change ${i} (add): step ${pos} is past the end; the recipe has ${out.length} steps at that point, so at is at most ${out.length + 1}.`);
        out.splice(pos - 1, 0, { ...c.step });
        return;
      }
      case 'remove':
        if (c.at > out.length) return problems.push(missing(i, c, c.at));
        out.splice(c.at - 1, 1);
        return;
      case 'replace':
        if (c.at > out.length) return problems.push(missing(i, c, c.at));
        out[c.at - 1] = { ...c.step };
        return;
      case 'set': {
        if (c.at > out.length) return problems.push(missing(i, c, c.at));
        if ('type' in c.fields) return problems.push(`Change ${i} (set): a step's type cannot be set; use replace with the whole new step.`);
        const next = { ...out[c.at - 1] };
        // An own "__proto__" key from JSON would set the prototype, not a field.
        if (Object.hasOwn(c.fields, '__proto__')) return problems.push(`Change ${i} (set): "__proto__" is not a step field.`);
        for (const [k, v] of Object.entries(c.fields)) {
          if (v === null) delete next[k];
          else next[k] = v;
        }
        out[c.at - 1] = next;
        return;
      }
      case 'move': {
        if (c.at > out.length) return problems.push(missing(i, c, c.at));
        if (c.to > out.length) return problems.push(`Change ${i} (move): there is no step ${c.to} to move to; the recipe has ${out.length} steps at that point.`);
        const [s] = out.splice(c.at - 1, 1);
        out.splice(c.to - 1, 0, s);
        return;
      }
    }
  });
  return problems.length ? { ok: false, problems } : { ok: true, steps: out };
}
