// The contract between recipes (lib/recipes), formula runs (lib/formulas) and the enrichment port: what a formula
// is once resolved, and what evaluating it on one lead gives. The shared library is bundled code; an agency's own
// formulas are rows of `formulas`; both resolve to a FormulaDef.
import type { CustomValue } from '../../schema';

export type FormulaKind = 'expression' | 'lookup' | 'question';
export type OutputType = 'text' | 'number' | 'boolean' | 'url';

export type FormulaDef = {
  /** The shared library key (e.g. `seniority_from_title`) or the agency formula's id. */
  ref: string;
  library: 'shared' | 'agency';
  name: string;
  description: string;
  goals: string[];
  kind: FormulaKind;
  /** expression: { expression }; lookup: { field } (a CompanyFacts field); question: { question } */
  spec: Record<string, unknown>;
  /** The lead fields (pool lead field names or custom column keys) the formula reads; a lead missing any is skipped. */
  inputs: string[];
  output_type: OutputType;
  /** Credits per cell written (0 for pure expressions over the lead's own fields). */
  credit_cost: number;
};

/** One cell: written (a value), empty (evaluated, nothing found: costs nothing), or skipped (inputs missing). */
export type CellResult =
  | { status: 'written'; value: Exclude<CustomValue, null> }
  | { status: 'empty' }
  | { status: 'skipped'; missing: string[] }
  | { status: 'failed'; error: string };
