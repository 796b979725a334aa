import freemailDomains from 'email-providers/all.json' with { type: 'json' };

// `email-providers` all.json (~8,700 domains: freemail, ISP mailboxes and disposable-mail services) rather than
// common.json (the ~360 most visited, a subset of all.json): for a CRM a freemail domain reported as a company is
// the costly mistake (CRMs associate contacts to companies by domain, so every gmx.de or hotmail.co.uk prospect
// would land in one "company"), and common.json misses many such domains (hotmail.co.uk, googlemail.com, …).
const FREEMAIL = new Set<string>((freemailDomains as string[]).map((d) => d.toLowerCase()));

/** Whether the domain (or a parent of it: mx.gmail.com) is a mailbox provider rather than a company. */
export function isFreemailDomain(domain: string): boolean {
  const labels = domain.toLowerCase().replace(/\.$/, '').split('.');
  for (let i = 0; i < labels.length - 1; i++) if (FREEMAIL.has(labels.slice(i).join('.'))) return true;
  return false;
}

/** The company domain of an email address; null for freemail providers (core §2). */
export function companyDomain(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at < 0) return null;
  const domain = email.slice(at + 1).trim().toLowerCase().replace(/\.$/, '');
  if (!domain.includes('.')) return null;
  return isFreemailDomain(domain) ? null : domain;
}

/** The prospect's name, or null when unknown: an address in the name field is not a name (core §2). */
export function displayName(name: string | null | undefined): string | null {
  const trimmed = name?.trim();
  if (!trimmed || trimmed.includes('@')) return null;
  return trimmed;
}
