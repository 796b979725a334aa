import { z } from 'zod';
import { canonicalJson } from '../agency/canonical';

// What a new version changes, step by step, for update_recipe's and add_column's previews. A longest common
// subsequence of whole steps finds what stayed; a removed and an added step writing the same column (or of the same
// column-less type) at the same place read as one changed step, which is how a person thinks of editing a field.

type Step = Record<string, unknown>;

export const StepDiffSchema = z.object({
  change: z.enum(['unchanged', 'added', 'removed', 'changed', 'moved']),
  before_step: z.number().int().nullable().describe('its number in the version the change builds on'),
  after_step: z.number().int().nullable().describe('its number in the new version'),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});
export type StepDiff = z.infer<typeof StepDiffSchema>;

const identity = (s: Step) => (typeof s.column_key === 'string' ? `col:${s.column_key}` : `type:${String(s.type)}`);

export function diffSteps(before: readonly Step[], after: readonly Step[]): StepDiff[] {
  const a = before.map((s) => canonicalJson(s));
  const b = after.map((s) => canonicalJson(s));
  const n = a.length;
  const m = b.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const raw: StepDiff[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      raw.push({ change: 'unchanged', before_step: i + 1, after_step: j + 1, before: before[i], after: after[j] });
      i++;
      j++;
    } else if (j < m && (i === n || lcs[i][j + 1] >= lcs[i + 1][j])) {
      raw.push({ change: 'added', before_step: null, after_step: j + 1, before: null, after: after[j] });
      j++;
    } else {
      raw.push({ change: 'removed', before_step: i + 1, after_step: null, before: before[i], after: null });
      i++;
    }
  }
  // Pair a removal with an addition of the same identity: equal content → moved, else changed.
  const out: StepDiff[] = [];
  const used = new Set<number>();
  raw.forEach((d, k) => {
    if (used.has(k)) return;
    if (d.change === 'removed' || d.change === 'added') {
      const other = raw.findIndex((e, l) => !used.has(l) && l !== k && e.change === (d.change === 'removed' ? 'added' : 'removed') && identity((e.before ?? e.after)!) === identity((d.before ?? d.after)!));
      if (other >= 0) {
        used.add(other);
        const rem = d.change === 'removed' ? d : raw[other];
        const add = d.change === 'added' ? d : raw[other];
        const same = canonicalJson(rem.before) === canonicalJson(add.after);
        out.push({ change: same ? 'moved' : 'changed', before_step: rem.before_step, after_step: add.after_step, before: rem.before, after: add.after });
        return;
      }
    }
    out.push(d);
  });
  return out;
}
