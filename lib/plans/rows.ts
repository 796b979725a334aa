import { and, asc, eq, inArray } from 'drizzle-orm';
import { organizations, plans, planSteps } from '../../schema';
import type { PlanStatus, StepStatus } from '../../schema/plans';
import type { Db } from '../db/types';
import { notFound } from '../errors';
import type { Services } from '../services';

export type PlanRow = typeof plans.$inferSelect;
export type StepRow = typeof planSteps.$inferSelect;

/** A client has at most one plan in these statuses (plans_client_open_uq): propose_action adds to it. */
export const OPEN_PLAN: PlanStatus[] = ['waiting_approval', 'approved', 'paused', 'dismissed'];
/** Steps that have not run yet: what a change may edit, what approval schedules, what the dry run checks. */
export const PENDING_STEP: StepStatus[] = ['waiting', 'approved', 'scheduled'];

export const isPending = (s: Pick<StepRow, 'status'>) => PENDING_STEP.includes(s.status);

/** Who changes a plan: the audit and plan-log actor, and the clock the change is stamped with. */
export type PlanActor = { services: Services; orgId: string; actor: string; now: Date; detail?: Record<string, unknown> };

/** The organization's plan, or not_found (another organization's plan is indistinguishable from none). */
export async function findPlan(db: Db, orgId: string, planId: string, lock = false): Promise<PlanRow> {
  const q = db.select().from(plans).where(and(eq(plans.id, planId), eq(plans.orgId, orgId)));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw notFound('plan');
  return row;
}

export async function stepsOf(db: Db, planId: string): Promise<StepRow[]> {
  return db.select().from(planSteps).where(eq(planSteps.planId, planId)).orderBy(asc(planSteps.position));
}

export async function openPlanOf(db: Db, orgId: string, clientId: string, lock = false): Promise<PlanRow | null> {
  const q = db
    .select()
    .from(plans)
    .where(and(eq(plans.orgId, orgId), eq(plans.clientId, clientId), inArray(plans.status, OPEN_PLAN)));
  const [row] = lock ? await q.for('update') : await q;
  return row ?? null;
}

export async function orgTimeZone(db: Db, orgId: string): Promise<string> {
  const [row] = await db.select({ timezone: organizations.timezone }).from(organizations).where(eq(organizations.id, orgId));
  return row?.timezone ?? 'UTC';
}

/** Services whose database is the caller's transaction: a step kind's dry run or undo then reads and writes in it. */
export const inTx = (services: Services, tx: Db): Services => ({ ...services, db: tx });

/** The plan actor of an agency call: `mcp:<key name>` or `key:<key name>`. */
export const whoOf = (call: { services: Services; auth: { orgId: string }; actor: string; now: Date }): PlanActor => ({
  services: call.services,
  orgId: call.auth.orgId,
  actor: call.actor,
  now: call.now,
});
