import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { suppressions } from '../../schema';
import type { Db } from '../db/types';
import { blockingValues, normaliseEmail } from './values';

export type Suppression = typeof suppressions.$inferSelect;

type Wanted = { emails: string[]; domains: string[] };

/**
 * For each address, the entry that blocks it; an address nothing blocks is absent from the map, whose keys are
 * the lower-cased addresses. Scope: the organization's own entries (client_id null: the do-not-contact list,
 * opt-outs) plus, given a client, that client's never-mail entries; another client's or another organization's
 * entries never match. One statement on the (org_id, value) index whatever the number of addresses: the values
 * travel as one array parameter, so an import or a batch selection of thousands stays one round trip.
 */
export async function findSuppressions(db: Db, q: { orgId: string; clientId: string | null; emails: readonly string[] }): Promise<Map<string, Suppression>> {
  const wanted = new Map<string, Wanted>();
  for (const raw of q.emails) {
    const email = normaliseEmail(raw);
    if (!wanted.has(email)) wanted.set(email, blockingValues(email));
  }
  const found = new Map<string, Suppression>();
  if (wanted.size === 0) return found;
  const values = [...new Set([...wanted.values()].flatMap((w) => [...w.emails, ...w.domains]))];
  const scope = q.clientId ? or(isNull(suppressions.clientId), eq(suppressions.clientId, q.clientId)) : isNull(suppressions.clientId);
  const rows = await db
    .select()
    .from(suppressions)
    .where(and(eq(suppressions.orgId, q.orgId), sql`${suppressions.value} = any(${sql.param(values)}::text[])`, scope));
  if (rows.length === 0) return found;

  const byValue = new Map<string, Suppression[]>();
  for (const row of rows) byValue.set(row.value, [...(byValue.get(row.value) ?? []), row]);
  for (const [email, w] of wanted) {
    // An email entry only blocks by its address, a domain entry only by a domain (values are disjoint anyway:
    // an address has an "@", a domain has none).
    const candidates = [
      ...w.emails.flatMap((v) => byValue.get(v) ?? []).filter((r) => r.kind === 'email'),
      ...w.domains.flatMap((v) => byValue.get(v) ?? []).filter((r) => r.kind === 'domain'),
    ];
    const best = candidates.sort(precedence)[0];
    if (best) found.set(email, best);
  }
  return found;
}

/**
 * Which entry is reported when several block one address: the organization's own list first (an opt-out is
 * the prospect's own request, and the message says so), then the address over a domain, then the most specific
 * domain, then the oldest entry.
 */
function precedence(a: Suppression, b: Suppression): number {
  return (
    Number(a.clientId !== null) - Number(b.clientId !== null) ||
    Number(a.kind !== 'email') - Number(b.kind !== 'email') ||
    b.value.length - a.value.length ||
    a.createdAt.getTime() - b.createdAt.getTime()
  );
}

/** The one entry that blocks a single address, or null. */
export async function findSuppression(db: Db, q: { orgId: string; clientId: string | null; email: string }): Promise<Suppression | null> {
  const found = await findSuppressions(db, { orgId: q.orgId, clientId: q.clientId, emails: [q.email] });
  return found.get(normaliseEmail(q.email)) ?? null;
}
