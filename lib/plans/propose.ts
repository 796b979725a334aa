import { eq, sql } from 'drizzle-orm';
import { plans, planSteps } from '../../schema';
import { findClient } from '../agency/clients/view';
import { refreshDryRun } from './dry_run';
import { recordPlanChange } from './log';
import { unapproveSteps } from './reopen';
import { findPlan, openPlanOf, stepsOf, type PlanActor } from './rows';
import { validateStep } from './validate';
import { planView, stepView, type PlanView, type StepView } from './view';

export type ProposeInput = { client_id: string; kind: string; params?: Record<string, unknown>; day?: number; note?: string; title?: string };

/**
 * Adds a step to the client's one open plan, creating the plan when there is none. Adding to a plan that was
 * approved (or paused) is a change like change_plan: the plan waits for approval again, steps that had not run
 * come off the schedule, and the revision moves so earlier confirm tokens are stale. A dismissed plan stays
 * dismissed (a person chose "not now"); it returns with the new step when its time is up.
 */
export async function proposeStep(who: PlanActor, input: ProposeInput): Promise<{ plan: PlanView; step: StepView; created: boolean }> {
  const v = validateStep(input.kind, input.params);
  const { services, orgId, now } = who;
  return services.db.transaction(async (tx) => {
    // The client's row lock serialises proposals: two first proposals cannot both create "the one open plan".
    const client = await findClient(tx, orgId, input.client_id, true);
    let plan = await openPlanOf(tx, orgId, client.id, true);
    const created = !plan;
    if (!plan) {
      [plan] = await tx
        .insert(plans)
        .values({ orgId, clientId: client.id, title: input.title ?? `Plan for ${client.name}`, status: 'waiting_approval', createdBy: who.actor, createdAt: now, updatedAt: now })
        .returning();
      await recordPlanChange(tx, who, { planId: plan.id, action: 'created', detail: { client_id: client.id, title: plan.title } });
    }
    const before = await stepsOf(tx, plan.id);
    const reapprove = plan.status === 'approved' || plan.status === 'paused';
    if (reapprove) await unapproveSteps(tx, before);
    const [step] = await tx
      .insert(planSteps)
      .values({
        planId: plan.id,
        orgId,
        clientId: client.id,
        position: before.reduce((m, s) => Math.max(m, s.position), 0) + 1,
        kind: v.kind.kind,
        day: input.day ?? 0,
        params: v.params,
        status: 'waiting',
        buys: v.kind.buys,
        undoable: v.kind.undoable && !v.kind.buys,
        credits: v.credits,
        createdBy: who.actor,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!created) {
      await tx
        .update(plans)
        .set({
          revision: sql`${plans.revision} + 1`,
          updatedAt: now,
          ...(reapprove && { status: 'waiting_approval' as const, approvalScope: null, approvedAt: null, approvedBy: null }),
        })
        .where(eq(plans.id, plan.id));
    }
    plan = await findPlan(tx, orgId, plan.id);
    await refreshDryRun(services, tx, plan, await stepsOf(tx, plan.id), who);
    await recordPlanChange(tx, who, {
      planId: plan.id,
      stepId: step.id,
      action: 'step_added',
      detail: { kind: step.kind, day: step.day, credits: step.credits, ...(input.note && { note: input.note }), ...(reapprove && { needs_approval_again: true }) },
    });
    return { plan: await planView(tx, await findPlan(tx, orgId, plan.id)), step: stepView(step), created };
  });
}
