// What the DNS and mailbox steps need to find their domain: its row when bought, or, at dry-run time (before the
// purchase ran), a buy_domain step for it earlier in the same plan.
import { and, eq, sql } from 'drizzle-orm';
import { domains, planSteps } from '../../schema';
import type { Db } from '../db/types';
import type { StepContext } from '../plans/step_kind';

export type DomainRow = typeof domains.$inferSelect;

export async function orgDomain(db: Db, orgId: string, name: string): Promise<DomainRow | null> {
  const [row] = await db.select().from(domains).where(and(eq(domains.orgId, orgId), eq(domains.name, name)));
  return row ?? null;
}

/** One sentence when the step's domain is neither this client's nor bought by an earlier step of its plan; else null. */
export async function domainProblem(ctx: StepContext, domain: string): Promise<string | null> {
  const db = ctx.services.db;
  const row = await orgDomain(db, ctx.orgId, domain);
  if (row) return row.clientId === ctx.clientId ? null : `${domain} belongs to another client of the organization.`;
  const [me] = await db.select({ position: planSteps.position }).from(planSteps).where(eq(planSteps.id, ctx.stepId));
  const [buy] = await db
    .select({ id: planSteps.id })
    .from(planSteps)
    .where(
      and(
        eq(planSteps.planId, ctx.planId),
        eq(planSteps.kind, 'buy_domain'),
        sql`${planSteps.params}->>'domain' = ${domain}`,
        sql`${planSteps.status} not in ('failed', 'undone')`,
        me ? sql`${planSteps.position} < ${me.position}` : sql`true`,
      ),
    )
    .limit(1);
  return buy ? null : `${domain} is not a domain of this client and no earlier step of this plan buys it (add it with choose_domains).`;
}
