import { and, asc, eq } from 'drizzle-orm';
import { icps, type IcpRules } from '../../schema';
import type { Db } from '../db/types';

// "Segments sort the rest" (agency spec §4 bridge rule 2): an imported lead joins the first ICP of its client
// (oldest first) whose rules it meets. Every rule given must hold; within a rule any listed value may match.

export type Icp = { id: string; rules: IcpRules };
export type IcpFacts = { country: string | null; title: string | null; company: string | null; hook: string | null; note: string | null; volumeBand: string | null };

export async function loadIcps(db: Db, orgId: string, clientId: string): Promise<Icp[]> {
  return db
    .select({ id: icps.id, rules: icps.rules })
    .from(icps)
    .where(and(eq(icps.orgId, orgId), eq(icps.clientId, clientId)))
    .orderBy(asc(icps.createdAt), asc(icps.id));
}

const lc = (s: string | null | undefined) => (s ?? '').toLowerCase().trim();
const listed = (l: readonly string[] | undefined) => (l ?? []).map(lc).filter(Boolean);

export function matchesIcp(rules: IcpRules, f: IcpFacts): boolean {
  const countries = listed(rules.countries);
  if (countries.length && !countries.includes(lc(f.country))) return false;
  const titles = listed(rules.titles);
  if (titles.length && !titles.some((t) => lc(f.title).includes(t))) return false;
  const bands = listed(rules.volume_bands);
  if (bands.length && !bands.includes(lc(f.volumeBand))) return false;
  const keywords = listed(rules.keywords);
  if (keywords.length) {
    const text = [f.title, f.company, f.hook, f.note].map(lc).join('\n');
    if (!keywords.some((k) => text.includes(k))) return false;
  }
  return true;
}

/** The id of the first ICP (by creation) the lead falls in, or null. */
export function icpOf(list: readonly Icp[], f: IcpFacts): string | null {
  return list.find((i) => matchesIcp(i.rules, f))?.id ?? null;
}
