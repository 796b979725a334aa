import type { CustomValue } from '../../schema';
import { websiteHost } from './never_mail';
import { FIXED_FIELDS, normaliseKey } from './columns';
import { ENRICH_FIELDS, isEnrichField, parseEnrichValue, type EnrichField } from './fixed_fields';

// One row of a table (CSV, a tool call, a bridge post) → the pool lead's fields. Tables name columns every way
// ("Work Email", "firstName", "Company Name", "person.linkedin"): keys are snake_cased, then matched by alias.

export type MappedLead = {
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  fullName: string | null;
  company: string | null;
  domain: string | null;
  website: string | null;
  title: string | null;
  linkedinUrl: string | null;
  companyLinkedinUrl: string | null;
  country: string | null;
  city: string | null;
  state: string | null;
  /** Enrichment fields the table already had (volume_band, hook, …), parsed as update_leads parses them. */
  enrich: Partial<Record<EnrichField, string | number | boolean | null>>;
  custom: Record<string, CustomValue>;
};

export type MapResult = { lead: MappedLead; invalid: string | null; personKey: string | null };

type TextField = 'firstName' | 'lastName' | 'fullName' | 'company' | 'domain' | 'website' | 'title' | 'companyLinkedinUrl' | 'country' | 'city' | 'state';

const ALIASES: Record<string, TextField | 'linkedinUrl'> = {};
const alias = (field: TextField | 'linkedinUrl', names: string) => names.split(' ').forEach((n) => (ALIASES[n] = field));
alias('firstName', 'first_name firstname first given_name forename person_first_name contact_first_name');
alias('lastName', 'last_name lastname last surname family_name person_last_name contact_last_name');
alias('fullName', 'full_name fullname name person_name contact_name person');
alias('company', 'company company_name companyname organization organisation organization_name organisation_name employer account_name business_name');
alias('domain', 'domain company_domain website_domain organization_domain email_domain_company');
alias('website', 'website company_website website_url url homepage company_url web site');
alias('title', 'title job_title jobtitle position role job_role headline_title');
alias('linkedinUrl', 'linkedin_url linkedin linkedin_profile linkedin_profile_url person_linkedin_url person_linkedin linkedinurl li_url profile_url');
alias('companyLinkedinUrl', 'company_linkedin_url company_linkedin linkedin_company_url linkedin_company organization_linkedin_url company_li_url');
alias('country', 'country country_name location_country person_country');
alias('city', 'city location_city person_city town');
alias('state', 'state region province location_state state_province person_state');

/** Fields a row never sets, whatever its columns say: identity, verification and status are the service's. */
const IGNORED = new Set(['id', 'lead_id', 'status', 'email_status', 'icp_id', 'provenance', 'contact_check', 'created_at', 'updated_at', 'import_id', 'person_key', 'org_id', 'client_id']);

// Freemail providers: an address there is a person's, not their work address, so it ranks last.
const FREEMAIL = new Set(
  ('gmail.com googlemail.com yahoo.com ymail.com rocketmail.com hotmail.com outlook.com live.com msn.com aol.com icloud.com me.com mac.com ' +
    'proton.me protonmail.com pm.me gmx.com gmx.net gmx.de gmx.at gmx.ch web.de mail.com yandex.com yandex.ru mail.ru qq.com 163.com 126.com ' +
    'zoho.com t-online.de freenet.de free.fr orange.fr laposte.net wanadoo.fr sfr.fr libero.it virgilio.it btinternet.com sky.com ' +
    'comcast.net verizon.net att.net sbcglobal.net hey.com fastmail.com tutanota.com tuta.io seznam.cz wp.pl o2.pl interia.pl onet.pl ' +
    'hotmail.co.uk hotmail.fr hotmail.de hotmail.it hotmail.es yahoo.co.uk yahoo.fr yahoo.de yahoo.es yahoo.it yahoo.co.in yahoo.com.br ' +
    'live.co.uk live.nl live.fr outlook.de outlook.fr bol.com.br uol.com.br terra.com.br naver.com daum.net rediffmail.com')
    .split(' ')
    .filter(Boolean),
);

export const isFreemail = (domain: string) => FREEMAIL.has(domain.toLowerCase());

const TEXT_MAX = 1000;
const CUSTOM_TEXT_MAX = 2000;

const EMAIL = /^[^\s@<>()[\],;:"]+@(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

/** A lower-cased address from how tables write them ("mailto:", "Name <a@b.com>", trailing dots), or null. */
export function cleanEmail(raw: string): string | null {
  let t = raw.trim().replace(/^mailto:/i, '');
  const angled = /<([^<>]+)>/.exec(t);
  if (angled) t = angled[1];
  t = t.trim().toLowerCase().replace(/\.+$/, '');
  return EMAIL.test(t) && t.length <= 320 ? t : null;
}

const emailDomain = (email: string) => email.slice(email.lastIndexOf('@') + 1);

/** Email columns are any key naming an address, not its status or metadata. */
const isEmailKey = (k: string) => /(^|_)e_?mails?($|_)/.test(k) && !/(status|verif|valid|score|type|source|provider|domain|count|confidence|result|catch_?all|quality|sent|opened|bounce)/.test(k);
/** Work-labelled columns first among equals, personal-labelled ones last. */
const keyRank = (k: string) => (/(work|business|company|professional|corporate|office)/.test(k) ? 0 : /(personal|private|home|alt|other|secondary)/.test(k) ? 2 : 1);

function textOf(v: unknown, max = TEXT_MAX): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string') return null;
  const t = v.replace(/\s+/g, ' ').trim();
  return t ? t.slice(0, max) : null;
}

function emailCandidates(v: unknown): string[] {
  if (Array.isArray(v)) return v.flatMap(emailCandidates);
  if (v && typeof v === 'object' && 'email' in v) return emailCandidates((v as { email: unknown }).email);
  if (typeof v !== 'string') return [];
  return v
    .split(/[,;\s]+(?![^<]*>)/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A column value as a custom field holds it: primitives as they are, lists joined, objects as JSON. */
function customOf(v: unknown): CustomValue | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string') return v.trim() ? v.trim().slice(0, CUSTOM_TEXT_MAX) : undefined;
  if (Array.isArray(v) && v.every((x) => x === null || ['string', 'number', 'boolean'].includes(typeof x))) {
    const joined = v.filter((x) => x !== null && x !== '').join(', ');
    return joined ? joined.slice(0, CUSTOM_TEXT_MAX) : undefined;
  }
  const json = JSON.stringify(v);
  return json && json !== '{}' && json !== '[]' ? json.slice(0, CUSTOM_TEXT_MAX) : undefined;
}

function splitName(full: string): { first: string | null; last: string | null } {
  // "Doe, Jane" is how CRMs export names: the part before the comma is the family name.
  const comma = full.indexOf(',');
  if (comma > 0) return { first: full.slice(comma + 1).trim() || null, last: full.slice(0, comma).trim() || null };
  const parts = full.split(' ');
  return { first: parts[0] || null, last: parts.slice(1).join(' ') || null };
}

/** The identity of an email-less row: the person's name and their company (or its domain), lower-cased. */
export function personKeyOf(l: Pick<MappedLead, 'fullName' | 'company' | 'domain'>): string | null {
  const person = l.fullName?.toLowerCase().replace(/\s+/g, ' ').trim();
  const company = (l.company ?? l.domain)?.toLowerCase().replace(/\s+/g, ' ').trim();
  return person && company ? `${person}|${company}` : null;
}

/** Flattens one level of nesting ({ person: { first_name } } → person_first_name) and a `custom` object's fields. */
function columnsOf(row: Record<string, unknown>): [string, unknown, boolean][] {
  const out: [string, unknown, boolean][] = [];
  for (const [rawKey, v] of Object.entries(row)) {
    const key = normaliseKey(rawKey);
    if (!key) continue;
    if (key === 'custom' && v && typeof v === 'object' && !Array.isArray(v)) {
      // A row's own custom fields stay custom: they never set the email, its status, an id or the status.
      for (const [ck, cv] of Object.entries(v as Record<string, unknown>)) {
        const k = normaliseKey(ck);
        if (k) out.push([k, cv, true]);
      }
      continue;
    }
    if (v && typeof v === 'object' && !Array.isArray(v) && !isEmailKey(key)) {
      for (const [nk, nv] of Object.entries(v as Record<string, unknown>)) {
        const k = normaliseKey(`${key}_${nk}`);
        if (k) out.push([k, nv, false]);
      }
      continue;
    }
    out.push([key, v, false]);
  }
  return out;
}

/** Maps one row; `invalid` says why it cannot become a lead (none: it can). */
export function mapRow(row: Record<string, unknown>): MapResult {
  const lead: MappedLead = {
    email: null, firstName: null, lastName: null, fullName: null, company: null, domain: null, website: null, title: null,
    linkedinUrl: null, companyLinkedinUrl: null, country: null, city: null, state: null, enrich: {}, custom: {},
  };
  const emails: { email: string; rank: number; order: number; key: string; raw: unknown }[] = [];
  const badEmails: string[] = [];
  let order = 0;
  for (const [key, v, fromCustom] of columnsOf(row)) {
    if (IGNORED.has(key) || (fromCustom && FIXED_FIELDS.has(key))) continue;
    if (!fromCustom && isEmailKey(key)) {
      for (const c of emailCandidates(v)) {
        const email = cleanEmail(c);
        if (email) emails.push({ email, rank: (isFreemail(emailDomain(email)) ? 10 : 0) + keyRank(key), order: order++, key, raw: v });
        else badEmails.push(c);
      }
      continue;
    }
    const field = fromCustom ? undefined : ALIASES[key];
    if (field) {
      const t = textOf(v);
      if (t && lead[field] === null) lead[field] = t;
      continue;
    }
    const enrichKey = key === 'volume_estimate' ? 'volume_band' : key;
    if (!fromCustom && isEnrichField(enrichKey) && ENRICH_FIELDS[enrichKey] !== 'linkedinUrl') {
      // A table's value that does not parse is left out rather than failing the row.
      const p = parseEnrichValue(enrichKey, v);
      if (p.ok && p.value !== null && lead.enrich[enrichKey] === undefined) lead.enrich[enrichKey] = p.value;
      continue;
    }
    if (FIXED_FIELDS.has(key)) continue;
    const c = customOf(v);
    if (c !== undefined && !(key in lead.custom)) lead.custom[key] = c;
  }

  emails.sort((a, b) => a.rank - b.rank || a.order - b.order);
  lead.email = emails[0]?.email ?? null;
  // The other address columns (a personal email beside the work one) stay as custom fields, never as the email.
  for (const e of emails) {
    if (e.key === emails[0].key || e.key in lead.custom || FIXED_FIELDS.has(e.key)) continue;
    const c = customOf(e.raw);
    if (c !== undefined) lead.custom[e.key] = c;
  }

  if (lead.fullName && !lead.firstName && !lead.lastName) {
    const s = splitName(lead.fullName);
    lead.firstName = s.first;
    lead.lastName = s.last;
    if (lead.fullName.includes(',')) lead.fullName = [s.first, s.last].filter(Boolean).join(' ');
  } else if (!lead.fullName && (lead.firstName || lead.lastName)) {
    lead.fullName = [lead.firstName, lead.lastName].filter(Boolean).join(' ');
  }

  // The company's domain: the row's, else its website's host, else the work address's domain.
  const fromDomain = lead.domain ? websiteHost(lead.domain.replace(/^@/, '')) : null;
  lead.domain = fromDomain ?? websiteHost(lead.website) ?? (lead.email && !isFreemail(emailDomain(lead.email)) ? emailDomain(lead.email) : null);
  if (lead.linkedinUrl) {
    const p = parseEnrichValue('linkedin_url', lead.linkedinUrl);
    lead.linkedinUrl = p.ok ? (p.value as string | null) : null;
  }

  const personKey = personKeyOf(lead);
  let invalid: string | null = null;
  if (!lead.email && badEmails.length) invalid = `not an email address: ${JSON.stringify(badEmails[0].slice(0, 100))}`;
  else if (!lead.email && !personKey) invalid = 'no email, and not both a person (name) and a company';
  return { lead, invalid, personKey };
}
