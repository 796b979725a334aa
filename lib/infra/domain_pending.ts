// Domains already on their way: bought by the organization (domains rows) or in a buy_domain step that has not
// run yet. choose_domains refuses both, so one domain is never bought twice by two plans.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { domains, planSteps } from '../../schema';
import type { Db } from '../db/types';

export type DomainClaim = { domain: string; client_id: string; by: 'bought' | 'plan_step'; step_id?: string };

export async function domainClaims(db: Db, orgId: string, names: string[]): Promise<Map<string, DomainClaim>> {
  const out = new Map<string, DomainClaim>();
  if (names.length === 0) return out;
  const owned = await db
    .select({ name: domains.name, clientId: domains.clientId })
    .from(domains)
    .where(and(eq(domains.orgId, orgId), inArray(domains.name, names)));
  for (const d of owned) out.set(d.name, { domain: d.name, client_id: d.clientId, by: 'bought' });
  const steps = await db
    .select({ id: planSteps.id, clientId: planSteps.clientId, domain: sql<string>`${planSteps.params}->>'domain'` })
    .from(planSteps)
    .where(
      and(
        eq(planSteps.orgId, orgId),
        eq(planSteps.kind, 'buy_domain'),
        inArray(planSteps.status, ['waiting', 'approved', 'scheduled', 'running']),
        inArray(sql`${planSteps.params}->>'domain'`, names),
      ),
    );
  for (const s of steps) if (!out.has(s.domain)) out.set(s.domain, { domain: s.domain, client_id: s.clientId, by: 'plan_step', step_id: s.id });
  return out;
}
