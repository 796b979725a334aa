import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { plans } from '../../schema';
import type { PlanStatus } from '../../schema/plans';
import { findClient } from '../agency/clients/view';
import type { Db } from '../db/types';
import { planSummaryView } from './view';

export type ListInput = { client_id?: string; status?: PlanStatus; limit?: number; offset?: number };

/** The organization's plans, newest first, with how many steps each has and how many ran. */
export async function listPlans(db: Db, orgId: string, input: ListInput) {
  if (input.client_id) await findClient(db, orgId, input.client_id);
  const limit = input.limit ?? 50;
  const offset = input.offset ?? 0;
  const where: SQL[] = [eq(plans.orgId, orgId)];
  if (input.client_id) where.push(eq(plans.clientId, input.client_id));
  if (input.status) where.push(eq(plans.status, input.status));
  // Correlated on plans.id spelled out: drizzle leaves a column of the selected table unqualified in a subquery.
  const rows = await db
    .select({
      plan: plans,
      steps: sql<number>`(select count(*) from plan_steps s where s.plan_id = plans.id)`.mapWith(Number),
      done: sql<number>`(select count(*) from plan_steps s where s.plan_id = plans.id and s.status = 'done')`.mapWith(Number),
    })
    .from(plans)
    .where(and(...where))
    .orderBy(desc(plans.createdAt), desc(plans.id))
    .limit(limit + 1)
    .offset(offset);
  const page = rows.slice(0, limit);
  return {
    plans: page.map((r) => ({ ...planSummaryView(r.plan), steps: r.steps, steps_done: r.done })),
    next_offset: rows.length > limit ? offset + limit : null,
  };
}
