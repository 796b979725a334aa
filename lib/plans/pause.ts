import { eq } from 'drizzle-orm';
import { plans } from '../../schema';
import { ApiError } from '../errors';
import { recordPlanChange } from './log';
import { holdSteps } from './reopen';
import { findPlan, orgTimeZone, stepsOf, type PlanActor } from './rows';
import { dueAtFor, publishScheduledSteps, scheduleSteps } from './schedule';
import { planView, type PlanView } from './view';

/**
 * Pause stops an approved plan before its next step: scheduled steps come off the schedule but stay approved (a
 * running step finishes). resume: true puts them back on their original day (counted from the approval), or runs
 * them now when that time has passed while the plan was paused; it needs no new approval.
 */
export async function pausePlan(who: PlanActor, planId: string, resume: boolean): Promise<{ plan: PlanView }> {
  const { services, orgId, now } = who;
  const out = await services.db.transaction(async (tx) => {
    const plan = await findPlan(tx, orgId, planId, true);
    const current = async () => ({ plan: await planView(tx, plan) });
    const steps = await stepsOf(tx, plan.id);
    if (!resume) {
      if (plan.status !== 'approved') {
        throw new ApiError('conflict', `only an approved plan can be paused; this plan is ${plan.status}${plan.status === 'paused' ? ' (resume: true releases it)' : ''}`, { body: await current() });
      }
      const held = await holdSteps(tx, steps);
      await tx.update(plans).set({ status: 'paused', updatedAt: now }).where(eq(plans.id, plan.id));
      await recordPlanChange(tx, who, { planId: plan.id, action: 'paused', detail: { held_steps: held } });
    } else {
      if (plan.status !== 'paused') throw new ApiError('conflict', `only a paused plan can be resumed; this plan is ${plan.status}`, { body: await current() });
      const zone = await orgTimeZone(tx, orgId);
      const anchor = plan.approvedAt ?? now;
      const due = steps
        .filter((s) => s.status === 'approved')
        .map((s) => {
          const at = dueAtFor(anchor, s.day, zone);
          return { id: s.id, dueAt: at.getTime() < now.getTime() ? now : at };
        });
      await tx.update(plans).set({ status: 'approved', updatedAt: now }).where(eq(plans.id, plan.id));
      if (due.length) await scheduleSteps(tx, services, due);
      await recordPlanChange(tx, who, { planId: plan.id, action: 'resumed', detail: { scheduled_steps: due.map((d) => d.id) } });
    }
    return { plan: await planView(tx, await findPlan(tx, orgId, plan.id)) };
  });
  if (resume) {
    await publishScheduledSteps(services, out.plan.steps.filter((s) => s.status === 'scheduled' && s.due_at).map((s) => ({ id: s.id, dueAt: new Date(s.due_at!) })));
  }
  return out;
}
