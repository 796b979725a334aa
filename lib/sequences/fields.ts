import type { PoolLeadRow } from '../pool/view';

// The names a sequence template may use: a pool lead's own text fields, its custom columns and the sender.

/** Pool lead fields (agency PoolLeadSchema) that read as text in a mail. Ids, status and provenance do not. */
export const LEAD_FIELDS = [
  'first_name', 'last_name', 'full_name', 'email', 'company', 'domain', 'website', 'title', 'linkedin_url', 'company_linkedin_url',
  'country', 'city', 'state', 'volume_band', 'monthly_volume', 'mail_type', 'current_sender', 'hook', 'note',
] as const;

export const SENDER_NAME = 'sender.name';
const LEAD_FIELD_SET = new Set<string>(LEAD_FIELDS);
// Custom column keys are snake_case (lib/pool/columns.ts normaliseKey).
const CUSTOM = /^custom\.[a-z][a-z0-9_]{0,63}$/;

export function isKnownPlaceholder(name: string): boolean {
  return LEAD_FIELD_SET.has(name) || name === SENDER_NAME || CUSTOM.test(name);
}

/**
 * Every value a template may use for one lead. full_name falls back to first and last name, as a person would
 * write it; a custom value of any type reads as text.
 */
export function leadValues(lead: PoolLeadRow, senderName: string): Record<string, string | null> {
  const joined = [lead.firstName, lead.lastName].filter((p) => p && p.trim()).join(' ');
  const own: Record<(typeof LEAD_FIELDS)[number], string | null> = {
    first_name: lead.firstName,
    last_name: lead.lastName,
    full_name: lead.fullName ?? (joined || null),
    email: lead.email,
    company: lead.company,
    domain: lead.domain,
    website: lead.website,
    title: lead.title,
    linkedin_url: lead.linkedinUrl,
    company_linkedin_url: lead.companyLinkedinUrl,
    country: lead.country,
    city: lead.city,
    state: lead.state,
    volume_band: lead.volumeBand,
    monthly_volume: lead.monthlyVolume === null ? null : String(lead.monthlyVolume),
    mail_type: lead.mailType,
    current_sender: lead.currentSender,
    hook: lead.hook,
    note: lead.note,
  };
  const custom = Object.fromEntries(Object.entries(lead.custom ?? {}).map(([k, v]) => [`custom.${k}`, v === null ? null : String(v)]));
  return { ...custom, ...own, [SENDER_NAME]: senderName };
}
