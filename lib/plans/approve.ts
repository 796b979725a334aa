import { eq } from 'drizzle-orm';
import { plans } from '../../schema';
import type { Applied, Preview, TwoStepDef } from '../agency/confirm';
import type { AgencyCall } from '../agency/operation';
import type { Db } from '../db/types';
import { ApiError, type ErrorCode } from '../errors';
import type { Services } from '../services';
import { dryRunPlan, type DryRun } from './dry_run';
import { recordPlanChange } from './log';
import { stepKind } from './registry';
import { findPlan, orgTimeZone, stepsOf, type PlanActor, type PlanRow, type StepRow } from './rows';
import { dueAtFor, publishScheduledSteps, scheduleSteps } from './schedule';
import { planView, stepSummary, type PlanView } from './view';

export type ApprovalScope = 'all' | 'free_steps';

/**
 * Above this many credits (of the steps one approval schedules) a person must approve in the app: a key with
 * agency.plans.approve gets person_confirmation_required. Set at the size of a large enrichment run, well above
 * run_formula's confirm_large line (200), so everyday plans go through and a costly one never does unseen.
 */
export const PERSON_CREDITS = 500;

export type ApprovalPreview = {
  plan: { id: string; client_id: string; title: string; status: string; revision: number };
  scope: ApprovalScope;
  steps: {
    id: string;
    position: number;
    kind: string;
    summary: string;
    day: number;
    runs_at: string | null;
    buys: boolean;
    undoable: boolean;
    credits: number;
    approved: boolean;
    keeps_waiting: string | null;
  }[];
  credits_total: number;
  buys: number;
  dry_run: DryRun;
  needs_person: string | null;
};

export type Approval = {
  plan: PlanRow;
  preview: ApprovalPreview;
  due: { id: string; dueAt: Date }[];
  state: unknown;
  blocked: { code: ErrorCode; message: string } | null;
};

/** Why a step is not part of this approval (null: it is). */
function keptWaiting(s: StepRow, scope: ApprovalScope): string | null {
  if (s.status !== 'waiting') return null;
  if (scope === 'free_steps' && s.buys) return 'buys: approve it with scope all';
  if (scope === 'free_steps' && !s.undoable) return 'cannot be undone: approve it with scope all';
  return null;
}

function statusRefusal(plan: PlanRow, waiting: number): string | null {
  switch (plan.status) {
    case 'waiting_approval':
      return null;
    case 'approved':
      return waiting > 0 ? null : 'the plan is already approved and has no step waiting for approval';
    case 'paused':
      return 'the plan is paused; release it with pause_plan and resume: true';
    case 'dismissed':
      return `the plan is dismissed until ${plan.dismissedUntil?.toISOString()}; change it with change_plan to bring it back now`;
    default:
      return `the plan is ${plan.status}; propose a new step to start a new plan`;
  }
}

/**
 * What approving would do, read without writing, for the assistant's two-step approve_plan and a person's admin
 * approval alike. The dry run is run afresh (the world may have moved since the last change); the days count from
 * the first approval, so approving a plan's purchases after its free steps keeps their days.
 */
export async function readApproval(services: Services, db: Db, plan: PlanRow, scope: ApprovalScope, q: { actor: string; now: Date }): Promise<Approval> {
  const steps = await stepsOf(db, plan.id);
  const zone = await orgTimeZone(db, plan.orgId);
  const anchor = plan.approvedAt ?? q.now;
  const dueOf = (s: StepRow) => {
    const d = dueAtFor(anchor, s.day, zone);
    return d.getTime() < q.now.getTime() ? q.now : d;
  };
  const chosen = steps.filter((s) => s.status === 'waiting' && !keptWaiting(s, scope));
  const dryRun = await dryRunPlan(services, db, plan, steps, q);
  const credits = chosen.reduce((n, s) => n + s.credits, 0);
  const personKinds = [...new Set(chosen.filter((s) => stepKind(s.kind)?.needsPerson).map((s) => s.kind))];
  const needsPerson =
    credits > PERSON_CREDITS
      ? `the approved steps may charge ${credits} credits, above the ${PERSON_CREDITS} an assistant may approve; a person approves it in the app`
      : personKinds.length
        ? `steps of kind ${personKinds.join(', ')} need a person's approval in the app`
        : null;
  const preview: ApprovalPreview = {
    plan: { id: plan.id, client_id: plan.clientId, title: plan.title, status: plan.status, revision: plan.revision },
    scope,
    steps: steps.map((s) => {
      const approved = chosen.includes(s);
      return {
        id: s.id,
        position: s.position,
        kind: s.kind,
        summary: stepSummary(s),
        day: s.day,
        runs_at: approved ? dueOf(s).toISOString() : (s.dueAt?.toISOString() ?? null),
        buys: s.buys,
        undoable: s.undoable,
        credits: s.credits,
        approved,
        keeps_waiting: keptWaiting(s, scope),
      };
    }),
    credits_total: credits,
    buys: chosen.filter((s) => s.buys).length,
    dry_run: dryRun,
    needs_person: needsPerson,
  };
  const refusal = statusRefusal(plan, steps.filter((s) => s.status === 'waiting').length);
  const blocked: Approval['blocked'] = refusal
    ? { code: 'conflict', message: refusal }
    : !dryRun.ok
      ? { code: 'dry_run_failed', message: `the plan's dry run failed: ${dryRun.problems.join(' ')}` }
      : chosen.length === 0
        ? { code: 'conflict', message: 'nothing to approve with scope free_steps: every waiting step buys something or cannot be undone; use scope all' }
        : needsPerson
          ? { code: 'person_confirmation_required', message: needsPerson }
          : null;
  // What the confirm must find unchanged: the revision moves on every change, so an older token is stale.
  const state = { revision: plan.revision, status: plan.status, steps: chosen.map((s) => [s.id, s.day, s.credits]), problems: dryRun.problems };
  return { plan, preview, due: chosen.map((s) => ({ id: s.id, dueAt: dueOf(s) })), state, blocked };
}

/** Approves in the caller's transaction: the plan's status and each chosen step scheduled for its day. */
export async function applyApproval(services: Services, tx: Db, a: Approval, who: PlanActor, approvedBy: string) {
  await tx
    .update(plans)
    .set({ status: 'approved', approvalScope: a.preview.scope, approvedAt: a.plan.approvedAt ?? who.now, approvedBy, dryRun: a.preview.dry_run, updatedAt: who.now })
    .where(eq(plans.id, a.plan.id));
  await scheduleSteps(tx, services, a.due);
  return {
    action: 'approved',
    detail: {
      scope: a.preview.scope,
      revision: a.plan.revision,
      steps: a.due.map((d) => d.id),
      credits_total: a.preview.credits_total,
      kept_waiting: a.preview.steps.filter((s) => s.keeps_waiting).map((s) => s.id),
      ...(a.preview.needs_person && { person_confirmed: a.preview.needs_person }),
    },
  };
}

type ApproveInput = { plan_id: string; scope?: ApprovalScope; confirm_token?: string };

/** approve_plan's two steps (agency-operator.md §3). */
export const approvePlan: TwoStepDef<ApproveInput, ApprovalPreview, { plan: PlanView }> = {
  tool: 'approve_plan',
  preview: async (call: AgencyCall, input, db): Promise<Preview<ApprovalPreview>> => {
    const plan = await findPlan(db, call.auth.orgId, input.plan_id, db !== call.services.db);
    const a = await readApproval(call.services, db, plan, input.scope ?? 'all', { actor: call.actor, now: call.now });
    return { preview: a.preview, state: a.state, credits: 0, ...(a.blocked && { blockedBy: a.blocked.code, blockedMessage: a.blocked.message }) };
  },
  apply: async (call, input, tx): Promise<Applied<{ plan: PlanView }>> => {
    const plan = await findPlan(tx, call.auth.orgId, input.plan_id);
    const who: PlanActor = { services: call.services, orgId: call.auth.orgId, actor: call.actor, now: call.now };
    const a = await readApproval(call.services, tx, plan, input.scope ?? 'all', who);
    const change = await applyApproval(call.services, tx, a, who, call.actor);
    await recordPlanChange(tx, who, { planId: plan.id, ...change }, { audit: false });
    return { result: { plan: await planView(tx, await findPlan(tx, call.auth.orgId, plan.id)) }, audit: { action: 'plan.approved', target: `plan:${plan.id}`, detail: change.detail } };
  },
};

/**
 * A person approves in the app (POST /admin/v1/plans/{plan_id}/approve). One step: the person sees the plan in
 * the app. It also confirms a cost that needs a person; a failed dry run or a plan not waiting still refuses.
 */
export async function approveByPerson(services: Services, planId: string, input: { approver: string; scope?: ApprovalScope }): Promise<{ plan: PlanView }> {
  const now = services.clock.now();
  const [found] = await services.db.select({ orgId: plans.orgId }).from(plans).where(eq(plans.id, planId));
  if (!found) throw new ApiError('not_found', 'plan not found');
  const out = await services.db.transaction(async (tx) => {
    const plan = await findPlan(tx, found.orgId, planId, true);
    const who: PlanActor = { services, orgId: plan.orgId, actor: 'admin', now, detail: { approver: input.approver } };
    const a = await readApproval(services, tx, plan, input.scope ?? 'all', who);
    if (a.blocked && a.blocked.code !== 'person_confirmation_required') throw new ApiError(a.blocked.code, a.blocked.message);
    const change = await applyApproval(services, tx, a, who, input.approver);
    await recordPlanChange(tx, who, { planId: plan.id, ...change });
    return { plan: await planView(tx, await findPlan(tx, plan.orgId, plan.id)), due: a.due };
  });
  await publishScheduledSteps(services, out.due);
  return { plan: out.plan };
}

/** After approve_plan's confirm committed: a queue outside the database (QStash) learns of the steps now. */
export async function publishApproved(services: Services, plan: PlanView) {
  await publishScheduledSteps(
    services,
    plan.steps.filter((s) => s.status === 'scheduled' && s.due_at).map((s) => ({ id: s.id, dueAt: new Date(s.due_at!) })),
  );
}
