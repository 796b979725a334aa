// The addresses create_mailboxes makes on a domain: people's names (the rule's sender names, else built-in ones),
// one person per mailbox first (anna@, tom@, lisa@), then other forms of the same names (anna.berg@, a.berg@…).
// Deterministic, so a repeated step proposes the same addresses in the same order and finds those it made.

/** Plain, international names; which one a domain starts with depends on the domain, so clients do not all share "anna@". */
export const BUILTIN_SENDER_NAMES = ['Anna Berg', 'Tom Weber', 'Lisa Novak', 'Mark Jensen', 'Sara Klein', 'David Moore', 'Emma Lind', 'Paul Meyer', 'Nina Ross', 'Jonas Hart'];

export type MailboxName = { address: string; local: string; firstName: string; lastName: string; displayName: string };

/** FNV-1a: a small stable hash for an order, not for security. */
function fnv(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

const plain = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

/** "Anna van Berg" → first Anna, last "van Berg". */
export function splitName(full: string): { first: string; last: string } {
  const words = full.trim().split(/\s+/);
  return { first: words[0] ?? '', last: words.slice(1).join(' ') };
}

/** The rule's names as given; without any, the built-in names rotated by the domain. */
export function senderNamesFor(ruleNames: string[], domain: string): string[] {
  if (ruleNames.length) return ruleNames;
  const start = fnv(domain) % BUILTIN_SENDER_NAMES.length;
  return [...BUILTIN_SENDER_NAMES.slice(start), ...BUILTIN_SENDER_NAMES.slice(0, start)];
}

const FORMS: ((f: string, l: string) => string)[] = [(f) => f, (f, l) => `${f}.${l}`, (f, l) => `${f[0]}.${l}`, (f, l) => `${f}${l}`, (f, l) => `${f}.${l[0]}`];

/** At least `n` distinct candidate addresses in a fixed order: every name in a form before the next form. */
export function mailboxCandidates(domain: string, names: string[], n: number): MailboxName[] {
  const people = names.map((full, i) => {
    const { first, last } = splitName(full);
    return { full, first, last, f: plain(first) || `sender${i + 1}`, l: plain(last) || 'mail' };
  });
  const out = new Map<string, MailboxName>();
  const add = (p: (typeof people)[number], local: string) => {
    const address = `${local}@${domain}`;
    if (!out.has(address) && local.length <= 64) out.set(address, { address, local, firstName: p.first, lastName: p.last, displayName: p.full });
  };
  for (const form of FORMS) for (const p of people) add(p, form(p.f, p.l));
  // Beyond the plain forms (many mailboxes, few names, addresses taken): numbered ones, as many as asked.
  for (let k = 2; out.size < n && people.length; k++) for (const p of people) add(p, `${p.f}.${p.l}${k}`);
  return [...out.values()];
}
