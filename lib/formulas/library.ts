// The shared formula library (find_formulas `library: shared`, alias `saleslobe`): what agencies compute again and
// again, bundled as code and addressed by key. Expressions over the lead's own fields cost nothing; a lookup
// through the enrichment port costs 1 credit per cell written, a question to the AI port 1 as well.
//
// Lookup specs: { field: <CompanyFacts field> } reads company facts; { field: 'vacancies', role } the open
// vacancies for a role (value = their titles); { field: 'signals', kind } recent signals of a kind (value = their
// titles). An optional `expression` then turns `value` into the cell (e.g. size_band(value)).
import type { FormulaDef } from './types';

export type LibraryFormula = Omit<FormulaDef, 'ref' | 'library'> & { key: string };

const expr = (key: string, name: string, description: string, goals: string[], inputs: string[], output_type: FormulaDef['output_type'], expression: string): LibraryFormula => ({
  key,
  name,
  description,
  goals,
  kind: 'expression',
  spec: { expression },
  inputs,
  output_type,
  credit_cost: 0,
});

const lookup = (key: string, name: string, description: string, goals: string[], output_type: FormulaDef['output_type'], spec: Record<string, unknown>): LibraryFormula => ({
  key,
  name,
  description,
  goals,
  kind: 'lookup',
  spec,
  inputs: ['company_domain'],
  output_type,
  credit_cost: 1,
});

const question = (key: string, name: string, description: string, goals: string[], inputs: string[], output_type: FormulaDef['output_type'], q: string): LibraryFormula => ({
  key,
  name,
  description,
  goals,
  kind: 'question',
  spec: { question: q },
  inputs,
  output_type,
  credit_cost: 1,
});

const TECH = (tech: string) => `contains(value, "${tech}")`;

export const LIBRARY: readonly LibraryFormula[] = [
  // Company facts through the enrichment port.
  lookup('company_size_band', 'Company size band', 'Employee count as a band: 1-10, 11-50, 51-200, 201-500, 501-1000, 1001-5000, 5000+.', ['segment by company size', 'qualify', 'icp fit'], 'text', { field: 'employees', expression: 'size_band(value)' }),
  lookup('employee_count', 'Employee count', "The company's number of employees.", ['company size', 'qualify'], 'number', { field: 'employees' }),
  lookup('industry', 'Industry', "The company's industry.", ['segment by industry', 'personalise', 'icp fit'], 'text', { field: 'industry' }),
  lookup('company_country', 'Company country', "The country of the company's headquarters.", ['segment by country', 'timezone'], 'text', { field: 'country' }),
  lookup('company_description', 'Company one-liner', "The company's own short description, for personalisation.", ['personalise', 'research'], 'text', { field: 'description' }),
  lookup('tech_stack', 'Tech stack', 'The technologies the company uses, comma separated.', ['tech stack', 'qualify', 'personalise'], 'text', { field: 'technologies', expression: 'join(value)' }),
  lookup('uses_hubspot', 'Tech stack contains HubSpot', 'Yes when HubSpot is in the company\'s tech stack.', ['tech stack', 'qualify', 'crm'], 'boolean', { field: 'technologies', expression: TECH('hubspot') }),
  lookup('uses_salesforce', 'Tech stack contains Salesforce', "Yes when Salesforce is in the company's tech stack.", ['tech stack', 'qualify', 'crm'], 'boolean', { field: 'technologies', expression: TECH('salesforce') }),
  lookup('uses_shopify', 'Tech stack contains Shopify', "Yes when Shopify is in the company's tech stack (an online shop).", ['tech stack', 'ecommerce', 'qualify'], 'boolean', { field: 'technologies', expression: TECH('shopify') }),
  lookup('uses_wordpress', 'Tech stack contains WordPress', "Yes when the company's site runs on WordPress.", ['tech stack', 'website', 'qualify'], 'boolean', { field: 'technologies', expression: TECH('wordpress') }),
  lookup('uses_google_workspace', 'Uses Google Workspace', 'Yes when the company is on Google Workspace (mail and docs).', ['tech stack', 'email provider'], 'boolean', { field: 'technologies', expression: 'contains_any(value, ["google workspace", "g suite", "gmail"])' }),
  lookup('domain_age_years', 'Domain age (years)', 'Years since the company behind the domain was founded (the enrichment port\'s founded year).', ['company age', 'qualify', 'startup'], 'number', { field: 'founded_year', expression: 'year() - value' }),
  lookup('is_startup', 'Young company (≤ 5 years)', 'Yes when the company was founded in the last five years.', ['startup', 'qualify', 'icp fit'], 'boolean', { field: 'founded_year', expression: 'year() - value <= 5' }),
  // Hiring and signals.
  lookup('hiring_sales', 'Hiring for sales', 'Yes when the company has open sales vacancies (a sign it invests in growth).', ['hiring for a role', 'buying signal', 'sales'], 'boolean', { field: 'vacancies', role: 'sales', expression: 'len(value) > 0' }),
  lookup('hiring_marketing', 'Hiring for marketing', 'Yes when the company has open marketing vacancies.', ['hiring for a role', 'buying signal', 'marketing'], 'boolean', { field: 'vacancies', role: 'marketing', expression: 'len(value) > 0' }),
  lookup('hiring_engineering', 'Hiring engineers', 'Yes when the company has open technical vacancies.', ['hiring for a role', 'buying signal', 'engineering'], 'boolean', { field: 'vacancies', role: 'technical', expression: 'len(value) > 0' }),
  lookup('open_vacancies', 'Open vacancies', 'How many open vacancies the company has (any role).', ['hiring', 'growth', 'buying signal'], 'number', { field: 'vacancies', role: 'default', expression: 'len(value)' }),
  lookup('recent_funding', 'Recent funding', 'The latest funding round found for the company (empty when none).', ['recent funding', 'buying signal', 'personalise'], 'text', { field: 'signals', kind: 'funding', expression: 'split_part(join(value, " | "), " | ", 1)' }),
  lookup('has_recent_funding', 'Raised money recently', 'Yes when a recent funding round was found.', ['recent funding', 'buying signal', 'qualify'], 'boolean', { field: 'signals', kind: 'funding', expression: 'len(value) > 0' }),
  lookup('recent_news', 'Recent news', 'The latest news headline about the company, for an opener.', ['personalise', 'news', 'buying signal'], 'text', { field: 'signals', kind: 'news', expression: 'split_part(join(value, " | "), " | ", 1)' }),
  // The lead's own fields (free).
  expr('seniority_from_title', 'Seniority from title', 'c_level, owner, vp, director, manager, entry or individual, from the job title.', ['seniority', 'decision maker', 'segment by role'], ['title'], 'text', 'seniority(title)'),
  expr('department_from_title', 'Department from title', 'sales, marketing, engineering, customer_success, operations, finance, hr, leadership or other, from the job title.', ['department', 'segment by role', 'persona'], ['title'], 'text', 'department(title)'),
  expr('is_decision_maker', 'Decision maker', 'Yes for owners, C-level, VPs and directors.', ['decision maker', 'qualify', 'seniority'], ['title'], 'boolean', 'seniority(title) in ["c_level", "owner", "vp", "director"]'),
  expr('country_timezone', 'Country → timezone', "The lead's timezone from their country (the main business zone of countries with several).", ['timezone', 'send time', 'segment by country'], ['country'], 'text', 'country_timezone(country)'),
  expr('country_language', 'Country → language', "The main language of the lead's country (en, de, nl, fr, …).", ['language', 'personalise', 'segment by country'], ['country'], 'text', 'country_language(country)'),
  expr('country_code', 'Country code', 'The ISO 3166 code of the lead\'s country ("Germany" → DE).', ['clean data', 'segment by country'], ['country'], 'text', 'country_code(country)'),
  expr('greeting', 'Greeting in the lead\'s language', 'First-name greeting in the language of the lead\'s country: "Hallo Anna," / "Hi John,".', ['personalise', 'greeting', 'language'], ['first_name'], 'text', 'greeting(first_name, country)'),
  expr('personalised_first_line', 'Personalised first line', 'An opening line from the lead\'s own fields: name, role and company (and the hook when there is one).', ['personalise', 'first line', 'opener'], ['first_name', 'company'], 'text', 'hook != null && hook != "" ? concat(name_case(first_name), ", ", hook) : concat("Hi ", name_case(first_name), ", I saw you ", title != null ? concat("work as ", lower(title), " at ") : "work at ", clean_company(company), ".")'),
  expr('first_name_fixed', 'First name capitalisation fix', "The first name in proper case (JOHN → John, o'neil → O'Neil).", ['clean data', 'personalise', 'name'], ['first_name'], 'text', 'name_case(first_name)'),
  expr('last_name_fixed', 'Last name capitalisation fix', 'The last name in proper case, particles kept (van der Berg).', ['clean data', 'name'], ['last_name'], 'text', 'name_case(last_name)'),
  expr('full_name', 'Full name', 'First and last name in proper case, or the full name as given.', ['clean data', 'name'], [], 'text', 'first_name != null ? trim(concat(name_case(first_name), " ", name_case(last_name))) : name_case(full_name)'),
  expr('company_name_clean', 'Company name cleanup', 'The company name without its legal form (Acme Inc. → Acme, Müller GmbH → Müller) for use in copy.', ['clean data', 'personalise', 'company name'], ['company'], 'text', 'clean_company(company)'),
  expr('website_domain', 'Website → domain', 'The bare domain of the website (https://www.acme.com/about → acme.com).', ['clean data', 'domain'], ['website'], 'text', 'domain_of(website)'),
  expr('email_domain', 'Email domain', "The domain of the lead's email address.", ['clean data', 'domain', 'email'], ['email'], 'text', 'domain_of(email)'),
  expr('generic_email', 'Generic vs. personal email', 'Yes for a function address (info@, sales@, hello@ …), no for a person\'s address.', ['email quality', 'deliverability', 'clean data'], ['email'], 'boolean', 'is_generic_email(email)'),
  expr('freemail_address', 'Freemail address', 'Yes when the address is at a freemail provider (gmail.com, gmx.de …) rather than at work.', ['email quality', 'clean data', 'work email'], ['email'], 'boolean', 'is_freemail(email)'),
  expr('linkedin_present', 'LinkedIn present', 'Yes when the lead has a LinkedIn profile URL.', ['linkedin', 'multichannel', 'data completeness'], [], 'boolean', 'contains(linkedin_url, "linkedin.com")'),
  expr('location', 'Location line', 'City, state and country in one line.', ['personalise', 'location'], ['country'], 'text', 'join([city, state, country])'),
  expr('email_matches_company', 'Email matches company domain', "Yes when the email's domain is the company's domain (a work address at this company).", ['email quality', 'clean data'], ['email', 'company_domain'], 'boolean', 'domain_of(email) == company_domain || ends_with(domain_of(email), concat(".", company_domain))'),
  // Questions to the AI port (the offline engine answers from the lead's fields).
  question('is_b2b', 'Sells to businesses', 'Asks the AI whether the company sells to businesses (B2B).', ['icp fit', 'qualify', 'research'], ['company'], 'boolean', 'Does {company} sell to businesses (B2B)?'),
  question('company_focus', 'What the company does', 'Asks the AI for a short description of what the company does, from what the lead says.', ['research', 'personalise'], ['company'], 'text', 'What does {company} do?'),
];

export const LIBRARY_BY_KEY = new Map(LIBRARY.map((f) => [f.key, f]));

export const libraryDef = (f: LibraryFormula): FormulaDef => {
  const { key, ...rest } = f;
  return { ref: key, library: 'shared', ...rest };
};
