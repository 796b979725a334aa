// find_formulas: the shared library and the agency's own formulas, searched by a goal ("personalise", "seniority")
// or free text. Every word of the search must appear in a formula's key, name, description or goals; formulas whose
// goals carry the words rank first.
import { asc, eq } from 'drizzle-orm';
import { formulas } from '../../schema';
import type { AgencyCall } from '../agency/operation';
import { ApiError } from '../errors';
import { ownDef } from './evaluate';
import { LIBRARY, libraryDef } from './library';
import { formulaView, type FormulaView } from './view';

export const LIBRARY_FILTERS = ['shared', 'saleslobe', 'agency', 'all'] as const;
export type LibraryFilter = (typeof LIBRARY_FILTERS)[number];

const words = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 2);

function score(f: FormulaView, terms: string[]): number {
  if (terms.length === 0) return 1;
  const goals = f.goals.join(' ').toLowerCase();
  const hay = `${f.id} ${f.name} ${f.description} ${goals}`.toLowerCase().replace(/_/g, ' ');
  if (!terms.every((t) => hay.includes(t))) return 0;
  return 1 + terms.filter((t) => goals.includes(t)).length * 2 + terms.filter((t) => f.name.toLowerCase().includes(t)).length;
}

export async function findFormulas(call: AgencyCall, input: { goal?: string; q?: string; library?: LibraryFilter }) {
  if (input.goal !== undefined && input.q !== undefined) throw new ApiError('validation_error', 'give goal or q, not both');
  const library = input.library === 'saleslobe' ? 'shared' : (input.library ?? 'all');
  const list: FormulaView[] = [];
  if (library !== 'agency') list.push(...LIBRARY.map((f) => formulaView(libraryDef(f))));
  if (library !== 'shared') {
    const own = await call.services.db.select().from(formulas).where(eq(formulas.orgId, call.auth.orgId)).orderBy(asc(formulas.name));
    list.push(...own.map((r) => formulaView(ownDef(r), r)));
  }
  const terms = words(input.goal ?? input.q ?? '');
  const scored = list.map((f, i) => ({ f, i, s: score(f, terms) })).filter((x) => x.s > 0);
  scored.sort((a, b) => b.s - a.s || a.i - b.i);
  return { formulas: scored.map((x) => x.f) };
}
