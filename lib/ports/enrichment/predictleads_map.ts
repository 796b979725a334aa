// PredictLeads API v3 answers (JSON:API style: `data: [{ id, type, attributes, relationships }]` plus `included`)
// mapped onto the port's shapes. Field names are PredictLeads' own so this file can be held against their reference
// (docs/enrichment.md lists where each was checked). Everything is read defensively: a field that is absent or of
// another type is left out rather than failing the lead.
import type { CompanyFacts, HiringRole, Signal, Vacancy } from './port';

export const PREDICTLEADS = 'predictleads';
const DAY_MS = 86_400_000;

export type JsonApiResource = { id?: string; type?: string; attributes?: Record<string, unknown>; relationships?: Record<string, { data?: unknown }> };
export type JsonApiDocument = { data?: JsonApiResource[] | JsonApiResource; included?: JsonApiResource[] };

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
const day = (v: unknown) => {
  const s = str(v);
  if (!s || Number.isNaN(Date.parse(s))) return null;
  return new Date(Date.parse(s)).toISOString().slice(0, 10);
};
const ageDays = (isoDay: string | null, now: Date) => (isoDay ? (now.getTime() - Date.parse(isoDay)) / DAY_MS : Number.POSITIVE_INFINITY);

export const resources = (doc: JsonApiDocument | null): JsonApiResource[] => {
  const d = doc?.data;
  return Array.isArray(d) ? d.filter((r) => r && typeof r === 'object') : d && typeof d === 'object' ? [d] : [];
};

/** The `included` resource a relationship points at (`technology`, `most_relevant_source`), if the answer carries it. */
function related(doc: JsonApiDocument, r: JsonApiResource, name: string): JsonApiResource | null {
  const ref = r.relationships?.[name]?.data;
  const one = (Array.isArray(ref) ? ref[0] : ref) as { id?: string; type?: string } | undefined;
  if (!one?.id) return null;
  return (doc.included ?? []).find((i) => i?.id === one.id && (!one.type || i.type === one.type)) ?? null;
}

/** `GET /companies/{domain}`: the company resource; the technologies come from its detections (a second call). */
export function companyOf(doc: JsonApiDocument, domain: string, technologies: string[]): CompanyFacts | null {
  const a = resources(doc)[0]?.attributes;
  if (!a) return null;
  const location = (a.location_data && typeof a.location_data === 'object' ? a.location_data : {}) as Record<string, unknown>;
  const employees = typeof a.employee_count === 'number' ? a.employee_count : typeof a.employee_count === 'string' ? Number.parseInt(a.employee_count, 10) || null : null;
  const founded = typeof a.founded_year === 'number' ? a.founded_year : typeof a.founded === 'number' ? a.founded : null;
  return {
    domain: str(a.domain) ?? domain,
    name: str(a.company_name) ?? str(a.friendly_company_name),
    industry: str(a.industry),
    employees,
    founded_year: founded,
    country: str(location.country) ?? str(location.country_code) ?? null,
    technologies,
    description: str(a.description) ?? str(a.description_short) ?? str(a.meta_description),
  };
}

// Job-opening `categories` as PredictLeads classifies them, onto the spec's hiring roles.
const CATEGORY_ROLE: Record<string, Exclude<HiringRole, 'custom' | 'default'>> = {
  sales: 'sales',
  marketing: 'marketing',
  software_development: 'technical',
  engineering: 'technical',
  information_technology: 'technical',
  data_analysis: 'technical',
  quality_assurance: 'technical',
  operations: 'operations',
  administration: 'operations',
  purchasing: 'operations',
  finance: 'operations',
  support: 'customer_success',
  customer_service: 'customer_success',
};

// When the categories say nothing we know, the title decides (first match wins: "Sales Engineer" is sales).
const TITLE_ROLE: ReadonlyArray<readonly [RegExp, Exclude<HiringRole, 'custom' | 'default'>]> = [
  [/customer success|customer support|support specialist|onboarding|implementation|account manager/i, 'customer_success'],
  [/\bsales\b|account executive|business development|\bsdr\b|\bbdr\b|revenue/i, 'sales'],
  [/marketing|growth|content|brand|\bseo\b|demand gen|\bcmo\b/i, 'marketing'],
  [/engineer|developer|devops|\bdata\b|software|\bcto\b|architect|programmer/i, 'technical'],
  [/operations|\bops\b|finance|office manager|supply chain|logistics|\bcoo\b|procurement/i, 'operations'],
];

/** A job opening's hiring role: its categories first, else its title; `default` when neither says. */
export function roleOf(title: string, categories: unknown): HiringRole {
  for (const c of Array.isArray(categories) ? categories : []) {
    const role = typeof c === 'string' ? CATEGORY_ROLE[c.toLowerCase()] : undefined;
    if (role) return role;
  }
  return TITLE_ROLE.find(([re]) => re.test(title))?.[1] ?? 'default';
}

/** `GET /companies/{domain}/job_openings`: open vacancies, newest first. */
export function vacanciesOf(doc: JsonApiDocument): Vacancy[] {
  const out: Vacancy[] = [];
  for (const r of resources(doc)) {
    const a = r.attributes ?? {};
    const title = str(a.title);
    if (!title || a.job_opening_closed === true) continue;
    out.push({ title, role: roleOf(title, a.categories), url: str(a.url), posted_on: day(a.first_seen_at) ?? day(a.posted_at) });
  }
  return out.sort((x, y) => (y.posted_on ?? '').localeCompare(x.posted_on ?? ''));
}

export function filterVacancies(list: Vacancy[], role: HiringRole, customRole?: string): Vacancy[] {
  if (role === 'default') return list;
  if (role !== 'custom') return list.filter((v) => v.role === role);
  const wanted = customRole?.trim().toLowerCase();
  return wanted ? list.filter((v) => v.title.toLowerCase().includes(wanted)).map((v) => ({ ...v, role: 'custom' as const })) : [];
}

/** How far back each kind counts as a signal ("recent"): older events are history, not a reason to write now. */
export const SIGNAL_WINDOW_DAYS = { hiring: 90, funding: 365, tech_change: 180, news: 90 } as const;
export const MAX_HIRING_SIGNALS = 5;

export function hiringSignalsOf(doc: JsonApiDocument, now: Date): Signal[] {
  return vacanciesOf(doc)
    .filter((v) => ageDays(v.posted_on ?? null, now) <= SIGNAL_WINDOW_DAYS.hiring)
    .slice(0, MAX_HIRING_SIGNALS)
    .map((v) => ({ kind: 'hiring' as const, title: `Hiring: ${v.title}`, happened_on: v.posted_on ?? null, source: PREDICTLEADS, detail: { role: v.role, url: v.url ?? null } }));
}

/** "$12M" from `amount_normalized` (USD, a number) or its already formatted spelling. */
function amountText(v: unknown): string | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : null;
  if (n === null) return str(v);
  if (n >= 1_000_000) return `$${Number((n / 1_000_000).toFixed(1))}M`;
  if (n >= 1_000) return `$${Math.round(n / 1_000)}K`;
  return n > 0 ? `$${n}` : null;
}

export function fundingSignalsOf(doc: JsonApiDocument, now: Date): Signal[] {
  const out: Signal[] = [];
  for (const r of resources(doc)) {
    const a = r.attributes ?? {};
    const happened = day(a.effective_date) ?? day(a.found_at);
    if (ageDays(happened, now) > SIGNAL_WINDOW_DAYS.funding) continue;
    const type = str(a.financing_type) ?? str(a.financing_type_normalized) ?? 'funding';
    const amount = amountText(a.amount_normalized) ?? amountText(a.amount);
    out.push({
      kind: 'funding',
      title: amount ? `Raised ${amount} ${type}` : `Announced ${type}`,
      happened_on: happened,
      source: PREDICTLEADS,
      detail: { id: r.id ?? null, financing_type: type, amount_normalized: a.amount_normalized ?? null },
    });
  }
  return out;
}

/** Detections first seen lately are adoptions; ones no longer seen (last seen 60–180 days ago) are drops. */
export function techSignalsOf(doc: JsonApiDocument, now: Date): Signal[] {
  const out: Signal[] = [];
  for (const r of resources(doc)) {
    const a = r.attributes ?? {};
    const tech = str(related(doc, r, 'technology')?.attributes?.name);
    if (!tech) continue;
    const first = day(a.first_seen_at);
    const last = day(a.last_seen_at);
    if (ageDays(first, now) <= SIGNAL_WINDOW_DAYS.tech_change) {
      out.push({ kind: 'tech_change', title: `Started using ${tech}`, happened_on: first, source: PREDICTLEADS, detail: { technology: tech, change: 'added' } });
    } else if (ageDays(last, now) > 60 && ageDays(last, now) <= SIGNAL_WINDOW_DAYS.tech_change) {
      out.push({ kind: 'tech_change', title: `Stopped using ${tech}`, happened_on: last, source: PREDICTLEADS, detail: { technology: tech, change: 'removed' } });
    }
  }
  return out;
}

/** Names of the technologies still seen on the company (for company facts). */
export function technologiesOf(doc: JsonApiDocument, now: Date): string[] {
  const names = resources(doc)
    .filter((r) => ageDays(day(r.attributes?.last_seen_at) ?? day(r.attributes?.first_seen_at), now) <= 60)
    .map((r) => str(related(doc, r, 'technology')?.attributes?.name))
    .filter((n): n is string => n !== null);
  return [...new Set(names)].sort();
}

export function newsSignalsOf(doc: JsonApiDocument, now: Date): Signal[] {
  const out: Signal[] = [];
  for (const r of resources(doc)) {
    const a = r.attributes ?? {};
    const happened = day(a.effective_date) ?? day(a.found_at);
    if (ageDays(happened, now) > SIGNAL_WINDOW_DAYS.news) continue;
    const article = related(doc, r, 'most_relevant_source')?.attributes ?? {};
    const title = (str(a.summary) ?? str(article.title) ?? str(a.category))?.slice(0, 300);
    if (!title) continue;
    out.push({ kind: 'news', title, happened_on: happened, source: PREDICTLEADS, detail: { id: r.id ?? null, category: str(a.category), url: str(article.url) } });
  }
  return out;
}
