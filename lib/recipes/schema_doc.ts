import { STEP_CHANGE_OPS } from './changes';
import { HIRING_ROLES, OUTPUT_TYPES, RECIPE_LIMITS, recipeJsonSchema, SIGNAL_KINDS, STEP_TYPE_DESCRIPTIONS, STEP_TYPES, type StepType } from './schema';

const CREDITS: Record<StepType, string> = {
  vacancy_search: '1 credit per cell written (a company with matching vacancies)',
  formula: "the formula's credit_cost per cell written (0 for expressions over the lead's own fields)",
  question: '1 credit per cell written',
  find_email: '1 credit per email found',
  dns_scan: 'free',
  signals: '1 credit per lead with a signal found',
};

const RULES = [
  'column_key values are unique within a recipe.',
  'column_key is not a fixed pool field (email, first_name, company, domain, title, volume_band, hook, …).',
  'custom_role is required when hiring_role is "custom" and not allowed otherwise.',
  'formula names a shared library key or one of the agency\'s own formula ids (find_formulas lists them).',
  `A recipe has 1 to ${RECIPE_LIMITS.max_steps} steps; a broken recipe is refused with 422 recipe_invalid, one sentence per problem in problems.`,
];

let cached: Record<string, unknown> | null = null;

/** get_recipe_schema's answer: computed once, it depends only on code. */
export function recipeSchemaDoc() {
  cached ??= recipeJsonSchema();
  return {
    schema: cached,
    step_types: STEP_TYPES.map((type) => ({ type, description: STEP_TYPE_DESCRIPTIONS[type], writes_column: ['vacancy_search', 'formula', 'question'].includes(type), credits: CREDITS[type] })),
    hiring_roles: [...HIRING_ROLES],
    output_types: [...OUTPUT_TYPES],
    signal_kinds: [...SIGNAL_KINDS],
    step_change_ops: { ...STEP_CHANGE_OPS },
    rules: RULES,
    limits: { ...RECIPE_LIMITS },
  };
}
