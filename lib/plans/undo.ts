import { and, eq } from 'drizzle-orm';
import { planSteps } from '../../schema';
import type { Applied, Preview, TwoStepDef } from '../agency/confirm';
import type { AgencyCall } from '../agency/operation';
import type { Db } from '../db/types';
import { ApiError } from '../errors';
import { recordPlanChange } from './log';
import { stepKind } from './registry';
import { findPlan, inTx, type StepRow } from './rows';
import { planView, stepView, type PlanView, type StepView } from './view';

export type UndoInput = { plan_id: string; step_id: string; confirm_token?: string };
export type UndoPreview = { plan_id: string; step: StepView; undoes: string };

async function findStep(db: Db, orgId: string, planId: string, stepId: string, lock: boolean): Promise<StepRow> {
  const q = db.select().from(planSteps).where(and(eq(planSteps.id, stepId), eq(planSteps.planId, planId), eq(planSteps.orgId, orgId)));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw new ApiError('not_found', 'step not found in this plan');
  return row;
}

/** Only a step that ran and can be undone; a purchase never (the money is spent), a step not run yet has nothing to undo. */
function refusal(s: StepRow) {
  const kind = stepKind(s.kind);
  if (s.buys) return new ApiError('not_undoable', `step ${s.position} (${s.kind}) bought something outside the service; a purchase cannot be undone`);
  if (!s.undoable || !kind?.undo) return new ApiError('not_undoable', `step ${s.position} (${s.kind}) cannot be undone`);
  if (s.status === 'undone') return new ApiError('conflict', `step ${s.position} (${s.kind}) was already undone at ${s.undoneAt?.toISOString()}`);
  if (s.status !== 'done') return new ApiError('conflict', `step ${s.position} (${s.kind}) is ${s.status}; only a step that ran can be undone`);
  return null;
}

async function preview(call: AgencyCall, input: UndoInput, db: Db): Promise<Preview<UndoPreview>> {
  const plan = await findPlan(db, call.auth.orgId, input.plan_id);
  const step = await findStep(db, call.auth.orgId, plan.id, input.step_id, db !== call.services.db);
  const refused = refusal(step);
  if (refused) throw refused;
  const view = stepView(step);
  return { preview: { plan_id: plan.id, step: view, undoes: `Undo: ${view.summary}` }, state: { status: step.status, ran_at: view.ran_at }, credits: 0 };
}

async function apply(call: AgencyCall, input: UndoInput, tx: Db): Promise<Applied<{ plan: PlanView; step: StepView }>> {
  const orgId = call.auth.orgId;
  const plan = await findPlan(tx, orgId, input.plan_id);
  const step = await findStep(tx, orgId, plan.id, input.step_id, true);
  const kind = stepKind(step.kind)!;
  const params = kind.params.parse(step.params);
  // In the confirm's transaction: the undo, the step's status and the audit row commit together or not at all.
  await kind.undo!({ services: inTx(call.services, tx), orgId, clientId: plan.clientId, stepId: step.id, planId: plan.id, now: call.now, actor: call.actor }, params, step.result ?? {});
  const [after] = await tx.update(planSteps).set({ status: 'undone', undoneAt: call.now, updatedAt: call.now }).where(eq(planSteps.id, step.id)).returning();
  const who = { orgId, actor: call.actor, now: call.now };
  await recordPlanChange(tx, who, { planId: plan.id, stepId: step.id, action: 'step_undone', detail: { kind: step.kind } }, { audit: false });
  return {
    result: { plan: await planView(tx, plan), step: stepView(after) },
    audit: { action: 'plan.step_undone', target: `plan_step:${step.id}`, detail: { plan_id: plan.id, kind: step.kind, result: step.result } },
  };
}

/** undo_step's two steps. */
export const undoStep: TwoStepDef<UndoInput, UndoPreview, { plan: PlanView; step: StepView }> = { tool: 'undo_step', preview, apply };
