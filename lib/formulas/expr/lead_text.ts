// What agencies compute from a lead's own text: seniority and department from a title, a cleaned company name,
// names in proper case, the company domain behind a website or an email. Pure functions; the expression language
// exposes each as a function so an agency's own formulas can use them too.
import { isFreemailDomain } from '../../crm/company';
import { websiteHost } from '../../pool/never_mail';

const has = (text: string, words: readonly string[]) => words.some((w) => new RegExp(`(^|[^a-z])${w}($|[^a-z])`).test(text));

const SENIORITY: [string, readonly string[]][] = [
  ['c_level', ['ceo', 'cto', 'cfo', 'coo', 'cmo', 'cro', 'cio', 'ciso', 'cpo', 'chief', 'president', 'managing director', 'geschäftsführer', 'geschaftsfuhrer', 'directeur général']],
  ['owner', ['owner', 'founder', 'co-founder', 'cofounder', 'partner', 'proprietor', 'inhaber', 'eigenaar']],
  ['vp', ['vp', 'vice president', 'svp', 'evp', 'head of']],
  ['director', ['director', 'directeur', 'direktor', 'leiter', 'leiterin']],
  ['manager', ['manager', 'lead', 'team lead', 'supervisor', 'teamleiter', 'coordinator']],
  ['entry', ['intern', 'trainee', 'junior', 'assistant', 'werkstudent', 'stagiair', 'apprentice']],
];

/** c_level | owner | vp | director | manager | entry | individual (a title that names none of these). */
export function seniorityOf(title: string): string {
  const t = title.toLowerCase();
  for (const [level, words] of SENIORITY) if (has(t, words)) return level;
  return 'individual';
}

const DEPARTMENTS: [string, readonly string[]][] = [
  ['sales', ['sales', 'account executive', 'business development', 'bdr', 'sdr', 'revenue', 'vertrieb', 'account manager', 'cro']],
  ['marketing', ['marketing', 'growth', 'brand', 'content', 'seo', 'demand generation', 'cmo', 'communications']],
  ['engineering', ['engineer', 'engineering', 'developer', 'software', 'cto', 'devops', 'architect', 'it', 'technology', 'data', 'product']],
  ['customer_success', ['customer success', 'support', 'customer service', 'account management', 'onboarding']],
  ['operations', ['operations', 'ops', 'coo', 'logistics', 'supply chain', 'procurement']],
  ['finance', ['finance', 'cfo', 'accounting', 'controller', 'treasury']],
  ['hr', ['hr', 'human resources', 'people', 'talent', 'recruiting', 'recruiter']],
  ['leadership', ['ceo', 'founder', 'owner', 'president', 'managing director', 'geschäftsführer']],
];

/** The department a title belongs to (sales, marketing, engineering, …), or "other". */
export function departmentOf(title: string): string {
  const t = title.toLowerCase();
  for (const [dept, words] of DEPARTMENTS) if (has(t, words)) return dept;
  return 'other';
}

const LEGAL_FORMS = [
  'inc', 'incorporated', 'llc', 'l.l.c', 'ltd', 'limited', 'plc', 'corp', 'corporation', 'co', 'company', 'gmbh', 'gmbh & co. kg', 'gmbh & co kg', 'ag', 'kg', 'ug',
  'bv', 'b.v', 'nv', 'n.v', 'sa', 's.a', 'sas', 'sarl', 'srl', 's.r.l', 'spa', 's.p.a', 'oy', 'ab', 'as', 'a/s', 'aps', 'pty', 'pty ltd', 'llp', 'lp', 'se',
];
const LEGAL_RE = new RegExp(`[\\s,]+(?:${LEGAL_FORMS.map((f) => f.replace(/[.&/]/g, (c) => `\\${c}`)).sort((a, b) => b.length - a.length).join('|')})\\.?$`, 'i');

/** "ACME Software GmbH & Co. KG" → "ACME Software"; also drops a trailing ", Inc." and surrounding quotes. */
export function cleanCompany(name: string): string {
  let out = name.trim().replace(/^["']|["']$/g, '').replace(/\s+/g, ' ');
  for (let i = 0; i < 3; i++) {
    const next = out.replace(LEGAL_RE, '').trim().replace(/[,\s]+$/, '');
    if (next === out || next === '') break;
    out = next;
  }
  return out;
}

const LOWER_PARTICLES = new Set(['van', 'von', 'de', 'der', 'den', 'du', 'la', 'le', 'da', 'di', 'dos', 'del', 'ter', 'ten', 'zu']);

/** "JOHN o'neil-SMITH" → "John O'Neil-Smith"; name particles (van, von, de) stay lower case inside a name. */
export function nameCase(name: string): string {
  const words = name.trim().replace(/\s+/g, ' ').toLowerCase().split(' ');
  return words
    .map((w, i) => {
      if (i > 0 && LOWER_PARTICLES.has(w)) return w;
      return w.replace(/(^|[-'’])(\p{L})/gu, (_, sep: string, ch: string) => sep + ch.toUpperCase()).replace(/^Mc(\p{L})/u, (_, ch: string) => `Mc${ch.toUpperCase()}`);
    })
    .join(' ');
}

/** The host of a URL, a bare domain or an email address, lower case, without www.; null when there is none. */
export function domainOf(v: string): string | null {
  const text = v.trim();
  const at = text.lastIndexOf('@');
  if (at >= 0 && !text.includes('/')) {
    const d = text.slice(at + 1).toLowerCase().replace(/^www\./, '');
    return d.includes('.') ? d : null;
  }
  return websiteHost(text);
}

export const isFreemail = (emailOrDomain: string) => {
  const d = domainOf(emailOrDomain);
  return d ? isFreemailDomain(d) : false;
};

const ROLE_LOCALS = new Set(['info', 'sales', 'hello', 'contact', 'office', 'admin', 'support', 'team', 'marketing', 'hr', 'jobs', 'careers', 'billing', 'mail', 'kontakt', 'service', 'enquiries', 'inquiries', 'press', 'noreply', 'no-reply']);

/** info@, sales@, hello@…: an address of a function, not of a person. */
export function isGenericEmail(email: string): boolean {
  const at = email.lastIndexOf('@');
  return at > 0 && ROLE_LOCALS.has(email.slice(0, at).trim().toLowerCase());
}

/** The company domain of a lead: its domain, else its website's host, else its work (non-freemail) email's domain. */
export function companyDomainOf(lead: { domain?: string | null; website?: string | null; email?: string | null }): string | null {
  if (lead.domain?.trim()) return lead.domain.trim().toLowerCase();
  const host = websiteHost(lead.website);
  if (host) return host;
  const d = lead.email ? domainOf(lead.email) : null;
  return d && !isFreemailDomain(d) ? d : null;
}

/** 1-10, 11-50, 51-200, 201-500, 501-1000, 1001-5000, 5000+ (the bands LinkedIn and most lead tools use). */
export function sizeBand(employees: number): string {
  const bands: [number, string][] = [[10, '1-10'], [50, '11-50'], [200, '51-200'], [500, '201-500'], [1000, '501-1000'], [5000, '1001-5000']];
  for (const [max, label] of bands) if (employees <= max) return label;
  return '5000+';
}
