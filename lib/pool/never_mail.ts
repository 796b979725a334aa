import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { suppressions } from '../../schema';
import type { Db } from '../db/types';
import type { Suppression } from '../suppression/match';
import { blockingValues, normaliseDomain, normaliseEmail } from '../suppression/values';

/** What identifies a lead for the never-mail check: its address and its company's domain and website. */
export type LeadAddress = { email?: string | null; domain?: string | null; website?: string | null };

/** The host of a website as typed in a table ("https://www.Acme.com/about", "acme.com"), without www.; or null. */
export function websiteHost(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const text = raw.trim();
  if (!text) return null;
  try {
    const host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`).hostname;
    const d = normaliseDomain(host).replace(/^www\./, '');
    return d.includes('.') ? d : null;
  } catch {
    return null;
  }
}

/** A domain and each parent of two labels or more (x.sales.acme.com → x.sales.acme.com, sales.acme.com, acme.com, com is left out). */
function domainChain(domain: string): string[] {
  const labels = normaliseDomain(domain).split('.');
  const out: string[] = [];
  for (let i = 0; i <= labels.length - 2; i++) out.push(labels.slice(i).join('.'));
  return out;
}

type Wanted = { emails: string[]; domains: string[] };

function wantedOf(lead: LeadAddress): Wanted {
  const w: Wanted = { emails: [], domains: [] };
  if (lead.email) {
    const b = blockingValues(normaliseEmail(lead.email));
    w.emails.push(...b.emails);
    w.domains.push(...b.domains);
  }
  if (lead.domain) w.domains.push(...domainChain(lead.domain.replace(/^www\./i, '')));
  const host = websiteHost(lead.website);
  if (host) w.domains.push(...domainChain(host));
  return w;
}

/**
 * The never-mail check of a set of leads (agency spec §2): for each lead index that is blocked, the entry that
 * blocks it. An email entry blocks its address; a domain entry blocks every address on it and its subdomains and
 * every lead whose company domain or website host is on it. The organization's do-not-contact list (opt-outs,
 * client_id null) counts too. One statement on the (org_id, value) index for the whole set, whatever its size:
 * import, batch selection, every email the waterfall finds, and right before any push call this.
 */
export async function findNeverMail(db: Db, q: { orgId: string; clientId: string; leads: readonly LeadAddress[] }): Promise<Map<number, Suppression>> {
  const wanted = q.leads.map(wantedOf);
  const values = [...new Set(wanted.flatMap((w) => [...w.emails, ...w.domains]))];
  const blocked = new Map<number, Suppression>();
  if (values.length === 0) return blocked;
  const rows = await db
    .select()
    .from(suppressions)
    .where(
      and(
        eq(suppressions.orgId, q.orgId),
        sql`${suppressions.value} = any(${sql.param(values)}::text[])`,
        or(isNull(suppressions.clientId), eq(suppressions.clientId, q.clientId)),
      ),
    );
  if (rows.length === 0) return blocked;
  const emailEntries = new Map<string, Suppression>();
  const domainEntries = new Map<string, Suppression>();
  for (const r of rows) {
    const into = r.kind === 'email' ? emailEntries : domainEntries;
    const had = into.get(r.value);
    // The organization's own entry (an opt-out, the prospect's own request) is the one reported.
    if (!had || (had.clientId !== null && r.clientId === null)) into.set(r.value, r);
  }
  wanted.forEach((w, i) => {
    const hit = w.emails.map((v) => emailEntries.get(v)).find(Boolean) ?? w.domains.map((v) => domainEntries.get(v)).find(Boolean);
    if (hit) blocked.set(i, hit);
  });
  return blocked;
}
