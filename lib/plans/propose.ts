import { eq, sql } from 'drizzle-orm';
import { plans, planSteps } from '../../schema';
import { findClient } from '../agency/clients/view';
import type { Db } from '../db/types';
import { refreshDryRun } from './dry_run';
import { recordPlanChange } from './log';
import { unapproveSteps } from './reopen';
import { findPlan, openPlanOf, stepsOf, type PlanActor, type PlanRow, type StepRow } from './rows';
import { validateStep } from './validate';
import { planView, stepView, type PlanView, type StepView } from './view';

export type ProposeInput = { client_id: string; kind: string; params?: Record<string, unknown>; day?: number; note?: string; title?: string };

/** One step to add: its kind, params and day (offset from approval). */
export type StepRequest = { kind: string; params?: Record<string, unknown>; day?: number; note?: string };

/**
 * Adds a step to the client's one open plan, creating the plan when there is none. Adding to a plan that was
 * approved (or paused) is a change like change_plan: the plan waits for approval again, steps that had not run
 * come off the schedule, and the revision moves so earlier confirm tokens are stale. A dismissed plan stays
 * dismissed (a person chose "not now"); it returns with the new step when its time is up.
 */
export async function proposeStep(who: PlanActor, input: ProposeInput): Promise<{ plan: PlanView; step: StepView; created: boolean }> {
  // Validated before the transaction opens: a bad kind or params is a 400 that touches nothing.
  validateStep(input.kind, input.params);
  return who.services.db.transaction(async (tx) => {
    const out = await proposeStepsIn(tx, who, input.client_id, [input], { title: input.title });
    return { plan: await planView(tx, out.plan), step: stepView(out.steps[0]), created: out.created };
  });
}

/**
 * proposeStep for several steps inside the caller's transaction (choose_domains' confirm, auto-protect's tick): the
 * steps and the plan change commit with the caller's own rows. One call is one change: the revision moves once.
 * `audit: false` leaves the audit row to the caller (a two-step confirm writes one row per decision).
 */
export async function proposeStepsIn(
  tx: Db,
  who: PlanActor,
  clientId: string,
  requests: StepRequest[],
  opts: { title?: string; audit?: boolean } = {},
): Promise<{ plan: PlanRow; steps: StepRow[]; created: boolean }> {
  const valid = requests.map((r, i) => ({ r, v: validateStep(r.kind, r.params, requests.length > 1 ? `steps.${i}.` : '') }));
  const { services, orgId, now } = who;
  const audit = { audit: opts.audit !== false };
  // The client's row lock serialises proposals: two first proposals cannot both create "the one open plan".
  const client = await findClient(tx, orgId, clientId, true);
  let plan = await openPlanOf(tx, orgId, client.id, true);
  const created = !plan;
  if (!plan) {
    [plan] = await tx
      .insert(plans)
      .values({ orgId, clientId: client.id, title: opts.title ?? `Plan for ${client.name}`, status: 'waiting_approval', createdBy: who.actor, createdAt: now, updatedAt: now })
      .returning();
    await recordPlanChange(tx, who, { planId: plan.id, action: 'created', detail: { client_id: client.id, title: plan.title } }, audit);
  }
  const before = await stepsOf(tx, plan.id);
  const reapprove = plan.status === 'approved' || plan.status === 'paused';
  if (reapprove) await unapproveSteps(tx, before);
  let position = before.reduce((m, s) => Math.max(m, s.position), 0);
  const added: { step: StepRow; note?: string }[] = [];
  for (const { r, v } of valid) {
    position += 1;
    const [step] = await tx
      .insert(planSteps)
      .values({
        planId: plan.id,
        orgId,
        clientId: client.id,
        position,
        kind: v.kind.kind,
        day: r.day ?? 0,
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
    added.push({ step, note: r.note });
  }
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
  for (const { step, note } of added) {
    await recordPlanChange(
      tx,
      who,
      {
        planId: plan.id,
        stepId: step.id,
        action: 'step_added',
        detail: { kind: step.kind, day: step.day, credits: step.credits, ...(note && { note }), ...(reapprove && { needs_approval_again: true }) },
      },
      audit,
    );
  }
  return { plan: await findPlan(tx, orgId, plan.id), steps: added.map((a) => a.step), created };
}
