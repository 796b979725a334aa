// What a formula reads of a lead: its fixed fields by their API names, its custom columns by key, and
// `company_domain` (the domain, else the website's host, else a work email's domain) that lookups need.
import type { PoolLeadRow } from '../pool/view';
import { companyDomainOf } from './expr/lead_text';
import type { Value } from './expr/run';

const FIXED: Record<string, (l: PoolLeadRow) => Value> = {
  email: (l) => l.email,
  email_status: (l) => l.emailStatus,
  first_name: (l) => l.firstName,
  last_name: (l) => l.lastName,
  full_name: (l) => l.fullName,
  company: (l) => l.company,
  domain: (l) => l.domain,
  website: (l) => l.website,
  title: (l) => l.title,
  linkedin_url: (l) => l.linkedinUrl,
  company_linkedin_url: (l) => l.companyLinkedinUrl,
  country: (l) => l.country,
  city: (l) => l.city,
  state: (l) => l.state,
  volume_band: (l) => l.volumeBand,
  monthly_volume: (l) => l.monthlyVolume,
  mail_type: (l) => l.mailType,
  current_sender: (l) => l.currentSender,
  hook: (l) => l.hook,
  named_account: (l) => l.namedAccount,
  sends_for_customers: (l) => l.sendsForCustomers,
  note: (l) => l.note,
  status: (l) => l.status,
  company_domain: (l) => companyDomainOf(l),
};

export const READABLE_FIXED_FIELDS = Object.keys(FIXED);

/** A lead's value by name; a custom column a run wrote earlier in the same round is in `custom` already. */
export function leadValue(lead: PoolLeadRow, name: string): Value {
  const fixed = FIXED[name];
  if (fixed) return fixed(lead) ?? null;
  return Object.prototype.hasOwnProperty.call(lead.custom, name) ? (lead.custom[name] ?? null) : null;
}

export const isBlank = (v: Value) => v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

/** The inputs a lead lacks (a formula skips such a lead for 0 credits). */
export const missingInputs = (lead: PoolLeadRow, inputs: readonly string[]) => inputs.filter((i) => isBlank(leadValue(lead, i)));

/** The lead as facts for a question: every field with a value, custom columns included. */
export function factsOf(lead: PoolLeadRow): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const name of READABLE_FIXED_FIELDS) {
    const v = leadValue(lead, name);
    if (!isBlank(v) && !Array.isArray(v) && name !== 'status') out[name] = v as string | number | boolean;
  }
  for (const [k, v] of Object.entries(lead.custom)) if (v !== null && v !== '') out[k] = v;
  return out;
}
