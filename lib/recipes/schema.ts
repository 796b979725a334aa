import { z } from 'zod';
import { FIXED_FIELDS } from '../pool/columns';

// A recipe is data with a schema: this zod definition both validates a recipe and is what get_recipe_schema
// publishes (z.toJSONSchema of the same objects), so the published schema can never drift from the validator.
// Cross-step rules a JSON Schema cannot say (unique column keys, custom_role iff hiring_role = custom, formulas that
// exist, fixed pool field names) live in validateDefinition below, which returns one sentence per problem.

export const HIRING_ROLES = ['sales', 'marketing', 'technical', 'operations', 'customer_success', 'custom', 'default'] as const;
export const OUTPUT_TYPES = ['text', 'number', 'boolean', 'url'] as const;
export const SIGNAL_KINDS = ['hiring', 'funding', 'tech_change', 'news'] as const;

export const RECIPE_LIMITS = {
  max_steps: 30,
  max_column_key_length: 64,
  max_question_length: 1000,
  max_custom_role_length: 100,
  max_name_length: 120,
  preview_leads: 10,
} as const;

export const HiringRoleSchema = z.enum(HIRING_ROLES).describe('Which vacancies count: a role family, `custom` (matches custom_role in job titles) or `default` (any open vacancy).');
export const OutputTypeSchema = z.enum(OUTPUT_TYPES);
export const SignalKindSchema = z.enum(SIGNAL_KINDS);

const COLUMN_KEY_RE = /^[a-z][a-z0-9_]*$/;
export const ColumnKeySchema = z
  .string()
  .min(1)
  .max(RECIPE_LIMITS.max_column_key_length)
  .regex(COLUMN_KEY_RE)
  .describe('The pool column the step writes: snake_case, unique within the recipe, not a fixed pool field (email, company, …).');

export const VacancySearchStepSchema = z
  .object({
    type: z.literal('vacancy_search'),
    column_key: ColumnKeySchema,
    hiring_role: HiringRoleSchema,
    custom_role: z.string().min(1).max(RECIPE_LIMITS.max_custom_role_length).optional().describe('Required when hiring_role is `custom`, e.g. "revops"; not allowed otherwise.'),
  })
  .strict()
  .describe('Searches the company\'s open vacancies for a role through the enrichment port; writes the matching titles (empty when none).');

export const FormulaStepSchema = z
  .object({
    type: z.literal('formula'),
    column_key: ColumnKeySchema,
    formula: z.string().min(1).max(100).describe('A shared library key (e.g. `seniority_from_title`) or the id of one of the agency\'s own formulas; find_formulas lists them.'),
  })
  .strict()
  .describe('Writes a formula\'s result into a column: an expression over the lead\'s fields, a lookup through the enrichment port, or a question to the AI.');

export const QuestionStepSchema = z
  .object({
    type: z.literal('question'),
    column_key: ColumnKeySchema,
    question: z.string().min(1).max(RECIPE_LIMITS.max_question_length).describe('Asked about each lead; {field} placeholders are filled from the lead (e.g. "Does {company} sell to enterprises?").'),
    output_type: OutputTypeSchema.describe('The column type the answer is stored as.'),
  })
  .strict()
  .describe('Asks the AI port a question per lead and writes the answer into a column.');

export const FindEmailStepSchema = z
  .object({ type: z.literal('find_email') })
  .strict()
  .describe('Runs the email waterfall for leads waiting for an email (a person and a company, no email): 1 credit per email found.');

export const DnsScanStepSchema = z
  .object({ type: z.literal('dns_scan') })
  .strict()
  .describe('Reads the company domain\'s MX and SPF records to set mail_type and current_sender (free).');

export const SignalsStepSchema = z
  .object({
    type: z.literal('signals'),
    kinds: z.array(SignalKindSchema).min(1).max(SIGNAL_KINDS.length).describe('Which signals to look for.'),
  })
  .strict()
  .describe('Looks for recent company signals (hiring, funding, tech changes, news): 1 credit per lead with a signal found.');

export const RecipeStepSchema = z.discriminatedUnion('type', [
  VacancySearchStepSchema,
  FormulaStepSchema,
  QuestionStepSchema,
  FindEmailStepSchema,
  DnsScanStepSchema,
  SignalsStepSchema,
]);

export const RecipeDefinitionSchema = z
  .object({
    steps: z.array(RecipeStepSchema).min(1).max(RECIPE_LIMITS.max_steps).describe('Run in order on each lead; a later step may read the columns an earlier one wrote.'),
  })
  .strict()
  .describe('An enrichment recipe: a list of typed steps.');

export type HiringRole = z.infer<typeof HiringRoleSchema>;
export type SignalKind = z.infer<typeof SignalKindSchema>;
export type RecipeStep = z.infer<typeof RecipeStepSchema>;
export type ColumnStep = Extract<RecipeStep, { column_key: string }>;
export type RecipeDefinition = z.infer<typeof RecipeDefinitionSchema>;
export type StepType = RecipeStep['type'];

const STEP_SCHEMAS = {
  vacancy_search: VacancySearchStepSchema,
  formula: FormulaStepSchema,
  question: QuestionStepSchema,
  find_email: FindEmailStepSchema,
  dns_scan: DnsScanStepSchema,
  signals: SignalsStepSchema,
} as const satisfies Record<StepType, z.ZodType>;

export const STEP_TYPES = Object.keys(STEP_SCHEMAS) as StepType[];

/** Each step type with what it does, for get_recipe_schema and the tool descriptions. */
export const STEP_TYPE_DESCRIPTIONS: Record<StepType, string> = Object.fromEntries(
  STEP_TYPES.map((t) => [t, STEP_SCHEMAS[t].description ?? '']),
) as Record<StepType, string>;

export const isColumnStep = (s: RecipeStep): s is ColumnStep => 'column_key' in s;

export type ValidateOptions = {
  /** Resolves a formula reference (shared key or own formula id); null when it does not exist. Absent: not checked. */
  resolveFormula?: (ref: string) => Promise<unknown | null>;
};

export type ValidationResult = { ok: true; definition: RecipeDefinition } | { ok: false; problems: string[] };

const q = (v: unknown) => JSON.stringify(v);

function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  return q(v);
}

/** One sentence per zod issue of one step, worded for a person (and a model) to fix it. */
function issueSentence(label: string, step: Record<string, unknown>, issue: z.core.$ZodIssue): string {
  const field = issue.path.map(String).join('.');
  const value = issue.path.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k as string] : undefined), step);
  switch (issue.code) {
    case 'unrecognized_keys':
      return `${label}: unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map(q).join(', ')}; get_recipe_schema lists the fields of each step type.`;
    case 'invalid_value':
      if (field === 'hiring_role') return `${label}: hiring_role must be one of ${HIRING_ROLES.join(', ')}, not ${describeValue(value)}.`;
      return `${label}: ${field} must be one of ${issue.values.map(String).join(', ')}, not ${describeValue(value)}.`;
    case 'invalid_type':
      if (value === undefined) return `${label}: ${field} is missing.`;
      return `${label}: ${field} must be ${issue.expected === 'array' ? 'a list' : `a ${issue.expected}`}, not ${describeValue(value)}.`;
    case 'too_small':
      if (issue.origin === 'array') return `${label}: ${field} needs at least ${issue.minimum} entr${Number(issue.minimum) === 1 ? 'y' : 'ies'}.`;
      return `${label}: ${field} must not be empty.`;
    case 'too_big':
      if (issue.origin === 'array') return `${label}: ${field} has more than ${issue.maximum} entries.`;
      return `${label}: ${field} is longer than ${issue.maximum} characters.`;
    case 'invalid_format':
      if (field === 'column_key') return `${label}: column_key ${describeValue(value)} must be snake_case (lower-case letters, digits and _, starting with a letter).`;
      return `${label}: ${field} is not in the expected format.`;
    default:
      return `${label}: ${field ? `${field}: ` : ''}${issue.message}.`;
  }
}

/**
 * Checks a recipe definition and names every problem in one sentence that says which step it is in, so a model can
 * fix them all in one go. The definition returned on success is the parsed one (exactly the schema's fields).
 */
export async function validateDefinition(def: unknown, opts: ValidateOptions = {}): Promise<ValidationResult> {
  if (!def || typeof def !== 'object' || Array.isArray(def)) return { ok: false, problems: ['The definition must be an object with a "steps" list.'] };
  const problems: string[] = [];
  const top = def as Record<string, unknown>;
  const extra = Object.keys(top).filter((k) => k !== 'steps');
  if (extra.length) problems.push(`The definition has unknown field${extra.length > 1 ? 's' : ''} ${extra.map(q).join(', ')}; it holds only "steps".`);
  const steps = top.steps;
  if (!Array.isArray(steps)) return { ok: false, problems: [...problems, 'The definition must have a "steps" list (1 to 30 steps).'] };
  if (steps.length === 0) problems.push('The recipe has no steps; add at least one.');
  if (steps.length > RECIPE_LIMITS.max_steps) problems.push(`The recipe has ${steps.length} steps; at most ${RECIPE_LIMITS.max_steps} are allowed.`);

  const seenKeys = new Map<string, number>();
  const formulaChecks: { label: string; ref: string }[] = [];
  steps.forEach((raw, i) => {
    const n = i + 1;
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
      problems.push(`Step ${n} must be an object with a "type".`);
      return;
    }
    const step = raw as Record<string, unknown>;
    const type = step.type;
    if (typeof type !== 'string' || !Object.hasOwn(STEP_SCHEMAS, type)) {
      problems.push(`Step ${n}: ${type === undefined ? 'the step type is missing' : `unknown step type ${describeValue(type)}`}; the types are ${STEP_TYPES.join(', ')}.`);
      return;
    }
    const label = `Step ${n} (${type})`;
    const parsed = STEP_SCHEMAS[type as StepType].safeParse(step);
    if (!parsed.success) for (const issue of parsed.error.issues) problems.push(issueSentence(label, step, issue));

    if (type === 'vacancy_search') {
      const hasRole = typeof step.custom_role === 'string' && step.custom_role.trim() !== '';
      if (step.hiring_role === 'custom' && !hasRole) problems.push(`${label}: hiring_role "custom" needs custom_role (the role to look for in job titles, e.g. "revops").`);
      if (step.hiring_role !== 'custom' && step.custom_role !== undefined && HIRING_ROLES.includes(step.hiring_role as HiringRole))
        problems.push(`${label}: custom_role applies only when hiring_role is "custom"; remove it or set hiring_role to "custom".`);
    }
    const key = step.column_key;
    if (typeof key === 'string' && key !== '' && 'column_key' in (STEP_SCHEMAS[type as StepType].shape as object)) {
      if (FIXED_FIELDS.has(key)) problems.push(`${label}: column_key "${key}" is a fixed pool field; choose another name.`);
      const first = seenKeys.get(key);
      if (first !== undefined) problems.push(`${label}: column_key "${key}" is already written by step ${first}; each column key may appear once.`);
      else seenKeys.set(key, n);
    }
    if (type === 'formula' && typeof step.formula === 'string' && step.formula.trim() !== '') formulaChecks.push({ label, ref: step.formula });
  });

  if (opts.resolveFormula) {
    for (const { label, ref } of formulaChecks) {
      if ((await opts.resolveFormula(ref)) === null) problems.push(`${label}: unknown formula ${q(ref)}; find_formulas lists them.`);
    }
  }
  // Problems are sorted by where they are, so "step 2" comes before "step 3" even when found in a later pass.
  const order = (p: string) => (/^Step (\d+)/.exec(p) ? Number(/^Step (\d+)/.exec(p)![1]) : 0);
  const sorted = problems.map((p, i) => ({ p, i })).sort((a, b) => order(a.p) - order(b.p) || a.i - b.i).map((x) => x.p);
  if (sorted.length) return { ok: false, problems: sorted };
  return { ok: true, definition: RecipeDefinitionSchema.parse(def) };
}

/** The published JSON Schema of a recipe definition (generated from RecipeDefinitionSchema). */
export function recipeJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(RecipeDefinitionSchema, { target: 'draft-2020-12' }) as Record<string, unknown>;
}
