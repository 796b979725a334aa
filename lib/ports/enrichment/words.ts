// The simulation's bundled vocabulary (agency-operator.md §6): what a simulated company is, does, uses, hires for
// and is in the news for. Plain lists so a demo reads like real prospecting data; the hash picks from them.
import type { HiringRole } from './port';

export const INDUSTRIES = [
  'Software',
  'E-commerce',
  'Logistics',
  'Marketing agency',
  'Financial services',
  'Healthcare',
  'Manufacturing',
  'Real estate',
  'Education',
  'Recruiting',
  'Hospitality',
  'Construction',
  'Legal services',
  'Insurance',
  'Renewable energy',
  'Consulting',
  'Media',
  'Telecommunications',
] as const;

export const COUNTRIES = ['US', 'US', 'US', 'GB', 'DE', 'NL', 'FR', 'CA', 'AU', 'SE', 'ES', 'IE', 'BE', 'DK'] as const;

export const CITIES = ['Amsterdam', 'Austin', 'Berlin', 'Boston', 'Chicago', 'Dublin', 'London', 'Madrid', 'Paris', 'Stockholm', 'Sydney', 'Toronto'] as const;

export const TECHNOLOGIES = [
  'HubSpot',
  'Salesforce',
  'Pipedrive',
  'Marketo',
  'Intercom',
  'Zendesk',
  'Shopify',
  'WordPress',
  'Webflow',
  'Google Analytics',
  'Segment',
  'Stripe',
  'AWS',
  'Google Cloud',
  'Microsoft Azure',
  'Slack',
  'Notion',
  'Outreach',
  'Salesloft',
  'Gong',
  'Zoom',
  'Snowflake',
  'Mailchimp',
  'Klaviyo',
] as const;

/** Open roles by hiring_role (the spec's values minus `custom` and `default`, which are filters, not kinds). */
export const JOB_TITLES: Record<Exclude<HiringRole, 'custom' | 'default'>, readonly string[]> = {
  sales: ['Account Executive', 'Sales Development Representative', 'Head of Sales', 'Business Development Manager', 'VP Sales', 'Enterprise Account Executive'],
  marketing: ['Marketing Manager', 'Growth Marketer', 'Content Marketing Lead', 'Head of Demand Generation', 'Product Marketing Manager', 'CMO'],
  technical: ['Senior Software Engineer', 'DevOps Engineer', 'Data Engineer', 'Engineering Manager', 'Frontend Developer', 'CTO'],
  operations: ['Operations Manager', 'Revenue Operations Lead', 'Office Manager', 'Supply Chain Coordinator', 'COO', 'Finance Manager'],
  customer_success: ['Customer Success Manager', 'Head of Customer Success', 'Support Specialist', 'Onboarding Manager', 'Account Manager', 'Implementation Consultant'],
};

export const ROLES = Object.keys(JOB_TITLES) as Array<keyof typeof JOB_TITLES>;

export const FUNDING_ROUNDS = ['Pre-seed', 'Seed', 'Series A', 'Series B', 'Series C', 'Growth'] as const;

/** Amount ranges (USD millions) per round, so a "Seed" is never larger than a "Series C". */
export const ROUND_AMOUNTS_M: Record<(typeof FUNDING_ROUNDS)[number], readonly [number, number]> = {
  'Pre-seed': [0.5, 2],
  Seed: [1, 6],
  'Series A': [5, 20],
  'Series B': [15, 60],
  'Series C': [40, 150],
  Growth: [50, 300],
};

/** `{company}`, `{city}`, `{tech}` and `{role}` are filled from the company's own simulated facts. */
export const NEWS_HEADLINES = [
  { category: 'expansion', template: '{company} opens a new office in {city}' },
  { category: 'new_offering', template: '{company} launches a new product for {industry} teams' },
  { category: 'partnership', template: '{company} partners with a {tech} integration partner' },
  { category: 'leadership', template: '{company} appoints a new {role}' },
  { category: 'recognition', template: '{company} named one of the fastest-growing companies in {city}' },
  { category: 'contract', template: '{company} signs a multi-year contract with a major {industry} customer' },
  { category: 'expansion', template: '{company} expands its team in {city}' },
  { category: 'acquisition', template: '{company} acquires a smaller {industry} competitor' },
] as const;

export const DESCRIPTIONS = [
  '{company} helps {industry} teams work faster.',
  '{company} is a {industry} company based in {city}.',
  '{company} builds tools for modern {industry} businesses.',
] as const;
