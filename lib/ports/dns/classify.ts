import type { MailType } from './port';

// What MX and SPF records say, shared by both adapters so the simulation reads its records as production does.

const host = (h: string) => h.trim().toLowerCase().replace(/\.$/, '');
const under = (h: string, suffix: string) => h === suffix || h.endsWith(`.${suffix}`);

/** Who hosts a domain's mailboxes, from its MX hosts. A null MX (RFC 7505: "." only) or none at all: `none`. */
export function mailTypeOf(mxHosts: readonly string[]): MailType {
  const hosts = mxHosts.map(host).filter((h) => h !== '');
  if (hosts.length === 0) return 'none';
  if (hosts.some((h) => under(h, 'google.com') || under(h, 'googlemail.com'))) return 'google_workspace';
  if (hosts.some((h) => under(h, 'outlook.com') || under(h, 'protection.outlook.com'))) return 'microsoft_365';
  return 'other';
}

// SPF include domains of the senders an agency meets, most specific first.
const SENDERS: [string, string][] = [
  ['_spf.google.com', 'google'],
  ['spf.protection.outlook.com', 'outlook'],
  ['sendgrid.net', 'sendgrid'],
  ['mailgun.org', 'mailgun'],
  ['amazonses.com', 'amazon_ses'],
  ['spf.mandrillapp.com', 'mandrill'],
  ['servers.mcsv.net', 'mailchimp'],
  ['hubspotemail.net', 'hubspot'],
  ['_spf.salesforce.com', 'salesforce'],
  ['mktomail.com', 'marketo'],
  ['spf.sendinblue.com', 'brevo'],
  ['spf.brevo.com', 'brevo'],
  ['spf.mailjet.com', 'mailjet'],
  ['spf.mtasv.net', 'postmark'],
  ['sparkpostmail.com', 'sparkpost'],
  ['zoho.com', 'zoho'],
  ['zoho.eu', 'zoho'],
  ['zohomail.com', 'zoho'],
  ['spf.messagingengine.com', 'fastmail'],
  ['secureserver.net', 'godaddy'],
  ['_spf.intercom.io', 'intercom'],
  ['mail.zendesk.com', 'zendesk'],
  ['_spf.freshdesk.com', 'freshdesk'],
];

/** The SPF record among a domain's TXT strings (`v=spf1 …`), or null. */
export function spfOf(txt: readonly string[]): string | null {
  return txt.map((t) => t.trim()).find((t) => /^v=spf1(\s|$)/i.test(t)) ?? null;
}

/** The first sender an SPF record includes that we recognise, or null. */
export function senderOf(spf: string | null): string | null {
  if (!spf) return null;
  for (const term of spf.split(/\s+/)) {
    const m = /^[+~?-]?(?:include|redirect)[:=](.+)$/i.exec(term);
    if (!m) continue;
    const domain = host(m[1]);
    const hit = SENDERS.find(([suffix]) => under(domain, suffix));
    if (hit) return hit[1];
  }
  return null;
}

/** A domain name worth asking about (letters, digits, hyphens, dots; two labels or more). */
export function isDomainName(d: string): boolean {
  return d.length <= 253 && /^([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/.test(d);
}
