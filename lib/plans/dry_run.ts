import { eq } from 'drizzle-orm';
import { plans } from '../../schema';
import { balanceOf } from '../credits/ledger';
import type { Db } from '../db/types';
import type { Services } from '../services';
import { stepKind } from './registry';
import { inTx, isPending, type PlanRow, type StepRow } from './rows';

export type DryRun = { ok: boolean; problems: string[]; at: string };

const label = (s: StepRow) => `Step ${s.position} (${s.kind})`;

/**
 * Checks every step that has not run yet with its kind's own dry run, and the plan as a whole (something to run,
 * credits to pay for it). Reads only, in `db` (the caller's transaction when there is one). A kind whose check
 * throws is a problem, not a crash: the plan simply cannot be approved until it is fixed.
 */
export async function dryRunPlan(services: Services, db: Db, plan: PlanRow, steps: StepRow[], q: { actor: string; now: Date }): Promise<DryRun> {
  const svc = inTx(services, db);
  const problems: string[] = [];
  const pending = steps.filter(isPending);
  if (pending.length === 0) problems.push('The plan has no step left to run; add one with propose_action or change_plan.');
  for (const s of pending) {
    const kind = stepKind(s.kind);
    if (!kind) {
      problems.push(`${label(s)}: the step kind "${s.kind}" is not known to this service any more; remove the step.`);
      continue;
    }
    const parsed = kind.params.safeParse(s.params);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      problems.push(`${label(s)}: params.${first.path.join('.') || '(root)'} ${first.message}.`);
      continue;
    }
    try {
      const found = await kind.dryRun({ services: svc, orgId: plan.orgId, clientId: plan.clientId, stepId: s.id, planId: plan.id, now: q.now, actor: q.actor }, parsed.data);
      for (const p of found) problems.push(`${label(s)}: ${p}`);
    } catch (err) {
      problems.push(`${label(s)}: the check could not run (${err instanceof Error ? err.message : String(err)}).`);
    }
  }
  const credits = pending.reduce((n, s) => n + s.credits, 0);
  if (credits > 0) {
    const balance = await balanceOf(db, plan.orgId);
    if (balance < credits) problems.push(`The plan's steps may charge up to ${credits} credits and the organization has ${balance}.`);
  }
  return { ok: problems.length === 0, problems, at: q.now.toISOString() };
}

/** Runs the dry run and stores it on the plan, in the caller's transaction. */
export async function refreshDryRun(services: Services, tx: Db, plan: PlanRow, steps: StepRow[], q: { actor: string; now: Date }): Promise<DryRun> {
  const dryRun = await dryRunPlan(services, tx, plan, steps, q);
  await tx.update(plans).set({ dryRun }).where(eq(plans.id, plan.id));
  return dryRun;
}
