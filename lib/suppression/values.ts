import { ApiError } from '../errors';

// The values a suppression entry holds and the values a recipient is checked against. Pure string work, so the
// send path, imports and batch selection all agree on what "the same address" and "that domain" mean.

export type SuppressionKind = 'email' | 'domain';

/** Lower-cased, trimmed; a trailing dot on the domain dropped ("a@Acme.com." → "a@acme.com"). */
export function normaliseEmail(raw: string): string {
  return raw.trim().toLowerCase().replace(/\.+$/, '');
}

export function normaliseDomain(raw: string): string {
  return raw.trim().toLowerCase().replace(/^@/, '').replace(/^\.+|\.+$/g, '');
}

/** The domain of an address (after the last "@"), or null when there is none. */
export function domainOf(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at <= 0 || at === email.length - 1) return null;
  return email.slice(at + 1);
}

/**
 * Every value that would block this address: the address itself, its base address when it carries a "+tag"
 * (a+news@x.com is delivered to a@x.com's mailbox, so an opt-out of a@x.com covers it), and its domain with
 * every parent domain of two labels or more: a@x.sales.acme.co.uk → x.sales.acme.co.uk, sales.acme.co.uk,
 * acme.co.uk, co.uk. Checking a public suffix is harmless: no entry can hold one (see entryValue).
 */
export function blockingValues(rawEmail: string): { emails: string[]; domains: string[] } {
  const email = normaliseEmail(rawEmail);
  const domain = domainOf(email);
  if (!domain) return { emails: [email], domains: [] };
  const local = email.slice(0, email.length - domain.length - 1);
  const emails = [email];
  const plus = local.indexOf('+');
  if (plus > 0) emails.push(`${local.slice(0, plus)}@${domain}`);
  const labels = domain.split('.');
  const domains: string[] = [];
  for (let i = 0; i <= labels.length - 2; i++) domains.push(labels.slice(i).join('.'));
  return { emails, domains };
}

// Second-level labels that registries hand out under a country code (co.uk, com.au, gob.mx, ac.jp, or.at …): the
// ICANN part of the Public Suffix List, cut to the labels that occur under many country codes. Not the whole
// list (7,000+ rules, most of them Japanese and Italian place names that no mail domain list is likely to hold);
// what matters is that nobody blocks all of co.uk by typing it as a domain.
const COUNTRY_SECOND_LEVEL = new Set(
  'ac co com net org edu gov govt gv gob gouv mil int nic ltd plc nhs police me or ne go nom name info biz web firm gen ind res rec tm idv sch school asn id in k12 med mobi pro coop ngo per'.split(' '),
);
// Country codes where every second-level name is a public suffix (the PSL's "*.bd" rules).
const WILDCARD_COUNTRIES = new Set(['bd', 'ck', 'er', 'fk', 'jm', 'kh', 'mm', 'np', 'pg']);

/** Whether a domain is (by the rules above) a public suffix: a top-level domain, co.uk, com.au, anything.bd … */
export function isPublicSuffix(domain: string): boolean {
  const labels = normaliseDomain(domain).split('.');
  if (labels.length <= 1) return true;
  if (labels.length > 2) return false;
  const [second, top] = labels;
  return top.length === 2 && (WILDCARD_COUNTRIES.has(top) || COUNTRY_SECOND_LEVEL.has(second));
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const validDomain = (d: string) => d.length <= 253 && d.split('.').every((l) => LABEL.test(l));

/**
 * The stored value of a new entry, or a 400 naming the field. A domain entry must be a registrable domain or a
 * subdomain of one: a bare public suffix ("com", "co.uk") would silence a whole country or registry.
 */
export function entryValue(kind: SuppressionKind, raw: string, field = 'value'): string {
  if (kind === 'email') {
    const email = normaliseEmail(raw);
    const domain = domainOf(email);
    if (!domain || email.length > 320 || /\s/.test(email) || email.indexOf('@') !== email.lastIndexOf('@') || !validDomain(domain)) {
      throw new ApiError('validation_error', `${field}: not an email address`);
    }
    return email;
  }
  const domain = normaliseDomain(raw);
  if (!validDomain(domain) || !domain.includes('.')) throw new ApiError('validation_error', `${field}: not a domain name`);
  if (isPublicSuffix(domain)) {
    throw new ApiError('validation_error', `${field}: ${domain} is a public suffix (it would block every domain under it); list the organization's own domain instead`);
  }
  return domain;
}
