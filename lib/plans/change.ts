import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { plans, planSteps } from '../../schema';
import type { Applied, Preview, TwoStepDef } from '../agency/confirm';
import type { AgencyCall } from '../agency/operation';
import type { Db } from '../db/types';
import { ApiError } from '../errors';
import { refreshDryRun } from './dry_run';
import { recordPlanChange } from './log';
import { unapproveSteps } from './reopen';
import { findPlan, isPending, OPEN_PLAN, stepsOf, type PlanActor, type PlanRow, type StepRow } from './rows';
import { validateStep } from './validate';
import { planView, stepSummary, type PlanView } from './view';

export const MAX_STEP_CHANGES = 50;

export const StepChangeSchema = z
  .object({
    op: z.enum(['add', 'remove', 'update']),
    step_id: z.uuid({ message: 'must be the id of a step of this plan (a UUID)' }).optional(),
    kind: z.string().trim().min(1).max(64).optional(),
    params: z.record(z.string(), z.unknown()).optional(),
    day: z.number().int().min(0).max(365).optional(),
  })
  .strict();
export type StepChange = z.infer<typeof StepChangeSchema>;

export type ChangeInput = { plan_id: string; step_changes: StepChange[]; title?: string; confirm_token?: string };

type Planned =
  | { op: 'add'; kind: string; params: Record<string, unknown>; day: number; buys: boolean; undoable: boolean; credits: number }
  | { op: 'remove'; step: StepRow }
  | { op: 'update'; step: StepRow; params: Record<string, unknown>; day: number; credits: number };

export type ChangePreview = {
  plan: { id: string; client_id: string; title: string; status: string; revision: number };
  changes: { op: string; step_id: string | null; kind: string; summary: string; day: number | null }[];
  steps_after: { id: string | null; kind: string; summary: string; day: number; status: string; buys: boolean; credits: number }[];
  unscheduled: number;
  waits_for_approval: true;
};

/** Checks every change against the plan and the registry; the first bad one is a 4xx naming it. */
function planChanges(plan: PlanRow, steps: StepRow[], changes: StepChange[]): Planned[] {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const touched = new Set<string>();
  return changes.map((c, i): Planned => {
    const at = `step_changes.${i}.`;
    if (c.op === 'add') {
      if (c.step_id) throw new ApiError('validation_error', `${at}step_id: an added step gets its id; leave step_id out`);
      if (!c.kind) throw new ApiError('validation_error', `${at}kind: required to add a step`);
      const v = validateStep(c.kind, c.params, at);
      return { op: 'add', kind: v.kind.kind, params: v.params, day: c.day ?? 0, buys: v.kind.buys, undoable: v.kind.undoable && !v.kind.buys, credits: v.credits };
    }
    if (!c.step_id) throw new ApiError('validation_error', `${at}step_id: required to ${c.op} a step`);
    const step = byId.get(c.step_id.toLowerCase());
    if (!step) throw new ApiError('not_found', `${at}step_id: no step ${c.step_id} in plan ${plan.id}`);
    if (touched.has(step.id)) throw new ApiError('validation_error', `${at}step_id: step ${step.id} is changed twice in one call`);
    touched.add(step.id);
    if (!isPending(step)) throw new ApiError('conflict', `${at}step_id: step ${step.position} is ${step.status}; only a step that has not run can be changed`);
    if (c.op === 'remove') return { op: 'remove', step };
    if (c.kind && c.kind !== step.kind) throw new ApiError('validation_error', `${at}kind: a step keeps its kind; remove it and add a ${c.kind} step instead`);
    if (c.params === undefined && c.day === undefined) throw new ApiError('validation_error', `${at}params: give params or day to update a step`);
    const v = validateStep(step.kind, c.params ?? step.params, at);
    return { op: 'update', step, params: v.params, day: c.day ?? step.day, credits: v.credits };
  });
}

async function preview(call: AgencyCall, input: ChangeInput, db: Db): Promise<Preview<ChangePreview>> {
  const plan = await findPlan(db, call.auth.orgId, input.plan_id, db !== call.services.db);
  if (!OPEN_PLAN.includes(plan.status)) throw new ApiError('conflict', `the plan is ${plan.status}; propose a new step to start a new plan`, { body: { plan: await planView(db, plan) } });
  const steps = await stepsOf(db, plan.id);
  const planned = planChanges(plan, steps, input.step_changes);
  const removed = new Set(planned.flatMap((p) => (p.op === 'remove' ? [p.step.id] : [])));
  const updated = new Map(planned.flatMap((p) => (p.op === 'update' ? [[p.step.id, p] as const] : [])));
  const after: ChangePreview['steps_after'] = [
    ...steps
      .filter((s) => !removed.has(s.id))
      .map((s) => {
        const u = updated.get(s.id);
        const params = u?.params ?? s.params;
        return { id: s.id, kind: s.kind, summary: stepSummary({ kind: s.kind, params }), day: u?.day ?? s.day, status: isPending(s) ? 'waiting' : s.status, buys: s.buys, credits: u?.credits ?? s.credits };
      }),
    ...planned.flatMap((p) => (p.op === 'add' ? [{ id: null, kind: p.kind, summary: stepSummary(p), day: p.day, status: 'waiting', buys: p.buys, credits: p.credits }] : [])),
  ];
  return {
    preview: {
      plan: { id: plan.id, client_id: plan.clientId, title: input.title ?? plan.title, status: plan.status, revision: plan.revision },
      changes: planned.map((p) =>
        p.op === 'add'
          ? { op: 'add', step_id: null, kind: p.kind, summary: stepSummary(p), day: p.day }
          : { op: p.op, step_id: p.step.id, kind: p.step.kind, summary: stepSummary(p.op === 'update' ? { kind: p.step.kind, params: p.params } : p.step), day: p.op === 'update' ? p.day : null },
      ),
      steps_after: after,
      unscheduled: steps.filter((s) => s.status === 'scheduled').length,
      waits_for_approval: true,
    },
    state: { revision: plan.revision, status: plan.status, steps: steps.map((s) => [s.id, s.status, s.day, s.credits]) },
    credits: 0,
  };
}

async function apply(call: AgencyCall, input: ChangeInput, tx: Db): Promise<Applied<{ plan: PlanView }>> {
  const orgId = call.auth.orgId;
  const who: PlanActor = { services: call.services, orgId, actor: call.actor, now: call.now };
  const plan = await findPlan(tx, orgId, input.plan_id);
  const steps = await stepsOf(tx, plan.id);
  const planned = planChanges(plan, steps, input.step_changes);
  const unscheduled = await unapproveSteps(tx, steps);
  let position = steps.reduce((m, s) => Math.max(m, s.position), 0);
  const added: string[] = [];
  const removedIds = planned.flatMap((p) => (p.op === 'remove' ? [p.step.id] : []));
  if (removedIds.length) await tx.delete(planSteps).where(and(eq(planSteps.planId, plan.id), inArray(planSteps.id, removedIds)));
  for (const p of planned) {
    if (p.op === 'update') {
      await tx.update(planSteps).set({ params: p.params, day: p.day, credits: p.credits, updatedAt: call.now }).where(eq(planSteps.id, p.step.id));
    } else if (p.op === 'add') {
      const [row] = await tx
        .insert(planSteps)
        .values({ planId: plan.id, orgId, clientId: plan.clientId, position: ++position, kind: p.kind, day: p.day, params: p.params, buys: p.buys, undoable: p.undoable, credits: p.credits, createdBy: call.actor, createdAt: call.now, updatedAt: call.now })
        .returning({ id: planSteps.id });
      added.push(row.id);
    }
  }
  await tx
    .update(plans)
    .set({
      status: 'waiting_approval',
      revision: sql`${plans.revision} + 1`,
      ...(input.title && { title: input.title }),
      approvalScope: null,
      approvedAt: null,
      approvedBy: null,
      dismissedUntil: null,
      updatedAt: call.now,
    })
    .where(eq(plans.id, plan.id));
  const fresh = await findPlan(tx, orgId, plan.id);
  const dryRun = await refreshDryRun(call.services, tx, fresh, await stepsOf(tx, plan.id), who);
  const detail = {
    revision: fresh.revision,
    added,
    removed: removedIds,
    updated: planned.flatMap((p) => (p.op === 'update' ? [p.step.id] : [])),
    unscheduled_steps: unscheduled,
    dry_run_ok: dryRun.ok,
  };
  await recordPlanChange(tx, who, { planId: plan.id, action: 'changed', detail }, { audit: false });
  return { result: { plan: await planView(tx, await findPlan(tx, orgId, plan.id)) }, audit: { action: 'plan.changed', target: `plan:${plan.id}`, detail } };
}

/** change_plan's two steps: the plan waits for approval again and earlier confirm tokens are stale. */
export const changePlan: TwoStepDef<ChangeInput, ChangePreview, { plan: PlanView }> = { tool: 'change_plan', preview, apply };
