import type { RecipeDefinition } from './schema';

// The starter templates every agency sees (list_recipe_templates, source "starter"). Bundled code rather than rows:
// they change with the service's formula library and step types, and a test proves each one validates against the
// published schema and names only formulas of the shared library.

export type StarterTemplate = { id: string; name: string; description: string; definition: RecipeDefinition };

export const STARTER_PREFIX = 'starter:';

export const STARTER_TEMPLATES: readonly StarterTemplate[] = [
  {
    id: 'starter:hiring_sales_first_line',
    name: 'Hiring sales → personalised first line',
    description:
      'Finds companies hiring salespeople and writes an opening line that mentions it. For agencies selling lead generation or sales tooling: a company adding reps needs pipeline.',
    definition: {
      steps: [
        { type: 'vacancy_search', column_key: 'hiring_sales', hiring_role: 'sales' },
        { type: 'formula', column_key: 'seniority', formula: 'seniority_from_title' },
        {
          type: 'question',
          column_key: 'first_line',
          question: 'Write one friendly opening sentence for {first_name} ({title} at {company}) that mentions they are hiring for sales ({hiring_sales}). No greeting, no pitch.',
          output_type: 'text',
        },
      ],
    },
  },
  {
    id: 'starter:funding_seniority',
    name: 'Funding signal + seniority',
    description: 'Looks for recent funding rounds and sorts contacts by seniority: freshly funded companies buy, and decision makers answer.',
    definition: {
      steps: [
        { type: 'signals', kinds: ['funding'] },
        { type: 'formula', column_key: 'recent_funding', formula: 'recent_funding' },
        { type: 'formula', column_key: 'seniority', formula: 'seniority_from_title' },
        { type: 'formula', column_key: 'decision_maker', formula: 'is_decision_maker' },
      ],
    },
  },
  {
    id: 'starter:tech_stack_fit',
    name: 'Tech stack fit',
    description: 'Reads the company\'s technologies and flags leads whose stack fits the offer, with the company size band to size the pitch.',
    definition: {
      steps: [
        { type: 'formula', column_key: 'tech_stack', formula: 'tech_stack' },
        { type: 'formula', column_key: 'company_size', formula: 'company_size_band' },
        {
          type: 'question',
          column_key: 'stack_fit',
          question: 'Given the technologies {tech_stack} of {company}, would a tool that integrates with their CRM be relevant to them?',
          output_type: 'boolean',
        },
        { type: 'signals', kinds: ['tech_change'] },
      ],
    },
  },
  {
    id: 'starter:find_emails_dns',
    name: 'Find emails + DNS scan',
    description: 'Finds work emails for leads that have a name and a company but no email, then reads each domain\'s MX and SPF (who hosts their mail, which tool sends for them).',
    definition: { steps: [{ type: 'find_email' }, { type: 'dns_scan' }] },
  },
  {
    id: 'starter:company_profile',
    name: 'Company profile',
    description: 'The basics to segment a list: industry, company size band, and the local timezone to schedule sends in working hours.',
    definition: {
      steps: [
        { type: 'formula', column_key: 'industry', formula: 'industry' },
        { type: 'formula', column_key: 'company_size', formula: 'company_size_band' },
        { type: 'formula', column_key: 'timezone', formula: 'country_timezone' },
      ],
    },
  },
  {
    id: 'starter:hiring_engineers',
    name: 'Hiring engineers + tech changes',
    description: 'For dev-shops and technical recruiters: companies with open engineering roles and a recent change in their stack.',
    definition: {
      steps: [
        { type: 'vacancy_search', column_key: 'hiring_engineers', hiring_role: 'technical' },
        { type: 'signals', kinds: ['hiring', 'tech_change'] },
        { type: 'formula', column_key: 'tech_stack', formula: 'tech_stack' },
      ],
    },
  },
  {
    id: 'starter:revops_hiring',
    name: 'RevOps hiring (custom role)',
    description: 'A custom vacancy search: companies hiring a RevOps or sales-ops person are fixing their pipeline. Change custom_role to the role your client cares about.',
    definition: {
      steps: [
        { type: 'vacancy_search', column_key: 'hiring_revops', hiring_role: 'custom', custom_role: 'revops' },
        { type: 'formula', column_key: 'seniority', formula: 'seniority_from_title' },
      ],
    },
  },
  {
    id: 'starter:full_enrichment',
    name: 'Full enrichment before writing',
    description: 'Everything a writer uses: email, mail setup, all signal kinds, seniority, and a personalised first line built from the lead\'s fields.',
    definition: {
      steps: [
        { type: 'find_email' },
        { type: 'dns_scan' },
        { type: 'signals', kinds: ['hiring', 'funding', 'tech_change', 'news'] },
        { type: 'formula', column_key: 'seniority', formula: 'seniority_from_title' },
        { type: 'formula', column_key: 'first_line', formula: 'personalised_first_line' },
      ],
    },
  },
];

export const starterById = new Map(STARTER_TEMPLATES.map((t) => [t.id, t]));
