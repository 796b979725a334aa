import { and, eq, lte, sql } from 'drizzle-orm';
import { plans } from '../../schema';
import { registerTick } from '../clock/ticks';
import { ApiError } from '../errors';
import type { Services } from '../services';
import { refreshDryRun } from './dry_run';
import { recordPlanChange } from './log';
import { unapproveSteps } from './reopen';
import { findPlan, OPEN_PLAN, stepsOf, type PlanActor } from './rows';
import { planView, type PlanView } from './view';

const DAY_MS = 86_400_000;

/**
 * "Not now" for 1 to 30 days: nothing of the plan runs meanwhile (steps that had not run come off the schedule),
 * and afterwards it returns waiting for approval with a fresh dry run. Dismissing again moves the return date.
 */
export async function dismissPlan(who: PlanActor, planId: string, days: number): Promise<{ plan: PlanView }> {
  const { services, orgId, now } = who;
  return services.db.transaction(async (tx) => {
    const plan = await findPlan(tx, orgId, planId, true);
    if (!OPEN_PLAN.includes(plan.status)) {
      throw new ApiError('conflict', `the plan is ${plan.status}; only an open plan can be dismissed`, { body: { plan: await planView(tx, plan) } });
    }
    const until = new Date(now.getTime() + days * DAY_MS);
    const unscheduled = await unapproveSteps(tx, await stepsOf(tx, plan.id));
    await tx
      .update(plans)
      .set({ status: 'dismissed', dismissedUntil: until, revision: sql`${plans.revision} + 1`, approvalScope: null, approvedAt: null, approvedBy: null, updatedAt: now })
      .where(eq(plans.id, plan.id));
    await recordPlanChange(tx, who, { planId: plan.id, action: 'dismissed', detail: { days, until: until.toISOString(), unscheduled_steps: unscheduled } });
    return { plan: await planView(tx, await findPlan(tx, orgId, plan.id)) };
  });
}

/**
 * Brings back every plan whose dismissal ended by `now`: waiting for approval again, with a fresh dry run. Run by
 * the scheduler's tick (and the simulated clock); each plan in its own transaction, so one bad plan holds none up.
 */
export async function returnDismissedPlans(services: Services, now: Date): Promise<number> {
  const due = await services.db
    .select({ id: plans.id, orgId: plans.orgId })
    .from(plans)
    .where(and(eq(plans.status, 'dismissed'), lte(plans.dismissedUntil, now)))
    .limit(500);
  let returned = 0;
  for (const d of due) {
    const who: PlanActor = { services, orgId: d.orgId, actor: 'system', now };
    const back = await services.db.transaction(async (tx) => {
      const plan = await findPlan(tx, d.orgId, d.id, true);
      // Another tick, or a change, got there first.
      if (plan.status !== 'dismissed' || !plan.dismissedUntil || plan.dismissedUntil.getTime() > now.getTime()) return false;
      await tx.update(plans).set({ status: 'waiting_approval', dismissedUntil: null, revision: sql`${plans.revision} + 1`, updatedAt: now }).where(eq(plans.id, plan.id));
      const fresh = await findPlan(tx, d.orgId, d.id);
      const dryRun = await refreshDryRun(services, tx, fresh, await stepsOf(tx, plan.id), who);
      await recordPlanChange(tx, who, { planId: plan.id, action: 'returned', detail: { dismissed_until: plan.dismissedUntil.toISOString(), dry_run_ok: dryRun.ok } });
      return true;
    });
    if (back) returned++;
  }
  return returned;
}

export const RETURN_DISMISSED_TICK = 'plans.return_dismissed';

/** Hourly: a plan dismissed for days comes back within the hour its time is up (functions/jobs/handlers.ts registers it). */
export function registerReturnDismissedTick() {
  registerTick(RETURN_DISMISSED_TICK, { everySeconds: 3600 }, async (services, at) => {
    await returnDismissedPlans(services, at);
  });
}
