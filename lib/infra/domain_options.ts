// domain_options: look-alike domains for a client, from stems × patterns × TLDs in a fixed order, asked at the
// registrar in chunks until `limit` free ones at or under the rule's maximum price are found. Reads only (the
// simulated registrar's own rows are the port's business).
import { and, eq, inArray } from 'drizzle-orm';
import { domains } from '../../schema';
import { findClient } from '../agency/clients/view';
import type { AgencyCall } from '../agency/operation';
import { ApiError } from '../errors';
import { STEM } from './domain_rule_schema';
import { readDomainRule } from './rule';
import { domainName } from './step_params';

/** Look-alikes an agency uses for cold-mail domains when the rule names no pattern: the brand plus a short word. */
export const BUILTIN_PATTERNS = ['{stem}', 'get{stem}', 'try{stem}', '{stem}hq', 'use{stem}', 'meet{stem}', '{stem}team', 'go{stem}', 'hey{stem}', '{stem}mail'];
/** The most names one call asks the registrar about (a registrar limits checks; Porkbun's are slow). */
export const MAX_CHECKED = 200;
export const CHECK_CHUNK = 50;

export type DomainOptionsInput = { client_id: string; stems?: string[]; pattern?: string; tlds?: string[]; limit?: number };
export type DomainOption = { domain: string; price_cents: number; available: boolean };
export type DomainOptions = {
  options: DomainOption[];
  checked: number;
  skipped: { owned: number; unavailable: number; over_price: number };
  stems: string[];
  patterns: string[];
  rule: { max_price_cents: number; tlds: string[] };
  simulated?: true;
};

/** A stem from the client's name when neither the call nor the rule names one: "Acme Lab GmbH" → "acmelabgmbh". */
export function slugOf(name: string): string | null {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .slice(0, 30);
  return STEM.test(slug) ? slug : null;
}

/** Every candidate name in a fixed order (stem, then pattern, then TLD), valid and distinct. */
export function candidateNames(stems: string[], patterns: string[], tlds: string[]): string[] {
  const out = new Set<string>();
  for (const stem of stems)
    for (const pattern of patterns)
      for (const tld of tlds) {
        const label = pattern.replace('{stem}', stem);
        const parsed = domainName.safeParse(`${label}.${tld}`);
        if (label.length <= 63 && !label.startsWith('-') && !label.endsWith('-') && parsed.success) out.add(parsed.data);
      }
  return [...out];
}

export async function domainOptions(call: AgencyCall, input: DomainOptionsInput): Promise<DomainOptions> {
  const { db, studio } = call.services;
  const orgId = call.auth.orgId;
  const client = await findClient(db, orgId, input.client_id);
  const rule = await readDomainRule(db, orgId, client.id);
  const fromName = slugOf(client.name);
  const stems = input.stems ?? (rule.stems.length ? rule.stems : fromName ? [fromName] : []);
  if (stems.length === 0) throw new ApiError('validation_error', `stems: the client's name "${client.name}" gives no stem; pass stems (e.g. ["acme"]) or set them with set_domain_rule`);
  const patterns = input.pattern ? [input.pattern] : rule.pattern ? [rule.pattern] : BUILTIN_PATTERNS;
  const tlds = input.tlds ?? rule.tlds;
  const limit = input.limit ?? 10;
  const all = candidateNames(stems, patterns, tlds);
  const owned = new Set(
    all.length
      ? (await db.select({ name: domains.name }).from(domains).where(and(eq(domains.orgId, orgId), inArray(domains.name, all)))).map((d) => d.name)
      : [],
  );
  const candidates = all.filter((d) => !owned.has(d)).slice(0, MAX_CHECKED);
  const options: DomainOption[] = [];
  const skipped = { owned: all.length - all.filter((d) => !owned.has(d)).length, unavailable: 0, over_price: 0 };
  let asked = 0;
  let checked = 0;
  let simulated = false;
  // Chunks a little larger than what is still missing: few names asked when most are free, never above 50.
  while (options.length < limit && asked < candidates.length) {
    const chunk = candidates.slice(asked, asked + Math.min(CHECK_CHUNK, 2 * (limit - options.length)));
    asked += chunk.length;
    const quotes = await studio.registrar.check({ db }, chunk);
    const byName = new Map(quotes.map((q) => [q.domain.toLowerCase(), q]));
    for (const name of chunk) {
      // `checked` counts the names considered in order up to the last option, so checked = options + skipped.
      if (options.length >= limit) break;
      checked += 1;
      const q = byName.get(name);
      if (q?.simulated) simulated = true;
      if (!q || !q.available || q.price_cents === null) skipped.unavailable += 1;
      else if (q.price_cents > rule.max_price_cents) skipped.over_price += 1;
      else options.push({ domain: name, price_cents: q.price_cents, available: true });
    }
  }
  return {
    options,
    checked,
    skipped,
    stems,
    patterns,
    rule: { max_price_cents: rule.max_price_cents, tlds: rule.tlds },
    ...((simulated || studio.registrar.kind === 'sim') && { simulated: true as const }),
  };
}
