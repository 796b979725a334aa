// Runs one due step, exactly once in effect. The lease is one conditional UPDATE (status scheduled and due, or a
// running step whose lease ran out): of two consumers racing, one gets the row. The kind's run is not inside our
// transaction (it writes through its own), so a process killed after the run's effects committed but before the
// step was marked done is taken over when its lease expires and runs again: at least once. The step id is the
// idempotency reference of everything a run does (credits, outside calls, rows it writes), so the second run finds
// its effects already there and changes nothing: exactly once in effect. Marking done is fenced by `attempts`, so a
// consumer whose lease was taken over cannot overwrite the newer consumer's outcome.
import { eq, sql } from 'drizzle-orm';
import { planLog, planSteps, plans, type PlanStatus } from '../../schema';
import { writeAudit } from '../agency/audit';
import { rows, type Db } from '../db/types';
import { errorText } from '../log';
import type { Services } from '../services';
import { stepKind, type StepContext } from './registry';
import { StepDeferred } from './step_kind';
import { publishScheduledSteps, stepJob } from './schedule';

export const SYSTEM_ACTOR = 'system';
/** Tries of a step whose run throws (a crash that loses the lease counts too); then it fails with the error. */
export const MAX_STEP_ATTEMPTS = 3;
/** A message may arrive this early (two clocks, QStash's whole-second delays): the step still counts as due. */
const EARLY_TOLERANCE_MS = 1_000;

/** How long a lease holds. A run that takes longer may be taken over (and must then find its effects done). */
let leaseMs = 5 * 60_000;
export const stepLeaseMs = () => leaseMs;
/** For tests and the crash proof: a short lease lets a restarted process take over a dead one's steps quickly. */
export function setStepLeaseMs(ms: number) {
  leaseMs = ms;
}

/** Wait before the next try after a thrown run: 1 minute, then 2, 4… */
export const retryDelayMs = (attempts: number) => 60_000 * 2 ** Math.max(0, attempts - 1);

type Leased = {
  id: string;
  plan_id: string;
  org_id: string;
  client_id: string;
  kind: string;
  params: Record<string, unknown>;
  credits: number;
  attempts: number;
};

export type StepOutcome = 'ran' | 'skipped' | 'failed' | 'deferred';

export async function executeStep(services: Services, stepId: string): Promise<StepOutcome> {
  const { db, clock } = services;
  const now = clock.now();
  const [step] = await rows<Leased>(
    db,
    sql`update plan_steps s set status = 'running', lease_until = ${new Date(now.getTime() + leaseMs).toISOString()}::timestamptz,
          attempts = s.attempts + 1, updated_at = ${now.toISOString()}::timestamptz
        from plans p
        where s.id = ${stepId}::uuid and p.id = s.plan_id and p.status = 'approved'
          and ((s.status = 'scheduled' and s.due_at <= ${new Date(now.getTime() + EARLY_TOLERANCE_MS).toISOString()}::timestamptz)
            or (s.status = 'running' and s.lease_until <= ${now.toISOString()}::timestamptz))
        returning s.id, s.plan_id, s.org_id, s.client_id, s.kind, s.params, s.credits, s.attempts`,
  );
  // Not ours: not due yet, paused/dismissed/changed, done, or another consumer holds it.
  if (!step) return 'skipped';
  const attempts = Number(step.attempts);
  if (attempts > MAX_STEP_ATTEMPTS) {
    return finish(services, step, attempts, { failed: `the step did not finish in ${MAX_STEP_ATTEMPTS} attempts (its process stopped or its lease ran out each time)` });
  }
  const kind = stepKind(step.kind);
  if (!kind) return afterThrow(services, step, attempts, `no step kind "${step.kind}" in this process`);
  const params = kind.params.safeParse(step.params);
  if (!params.success) {
    return finish(services, step, attempts, { failed: `params no longer valid: ${params.error.issues.map((i) => `${i.path.join('.') || '(params)'}: ${i.message}`).join('; ')}` });
  }
  const ctx: StepContext = { services, orgId: step.org_id, clientId: step.client_id, stepId: step.id, planId: step.plan_id, now, actor: SYSTEM_ACTOR };
  let result: Record<string, unknown>;
  try {
    result = (await kind.run(ctx, params.data)) ?? {};
  } catch (err) {
    if (err instanceof StepDeferred) return defer(services, step, attempts, err);
    return afterThrow(services, step, attempts, errorText(err));
  }
  return finish(services, step, attempts, { result });
}

/** A thrown run is tried again later (a new due time and job) until MAX_STEP_ATTEMPTS; then the step fails. */
async function afterThrow(services: Services, step: Leased, attempts: number, error: string): Promise<StepOutcome> {
  if (attempts >= MAX_STEP_ATTEMPTS) return finish(services, step, attempts, { failed: error });
  const now = services.clock.now();
  const dueAt = new Date(now.getTime() + retryDelayMs(attempts));
  const requeued = await services.db.transaction(async (tx) => {
    const [row] = await tx
      .update(planSteps)
      .set({ status: 'scheduled', dueAt, leaseUntil: null, error, updatedAt: now })
      .where(sql`${planSteps.id} = ${step.id}::uuid and ${planSteps.status} = 'running' and ${planSteps.attempts} = ${attempts}`)
      .returning({ id: planSteps.id });
    if (!row) return false; // our lease was taken over: the newer consumer decides
    await tx.insert(planLog).values({ planId: step.plan_id, orgId: step.org_id, stepId: step.id, at: now, actor: SYSTEM_ACTOR, action: 'step.retry', detail: { kind: step.kind, attempt: attempts, error, retry_at: dueAt.toISOString() } });
    if (services.queue.transactional) await services.queue.enqueue(stepJob(step.id, dueAt), { tx });
    return true;
  });
  if (requeued) await publishScheduledSteps(services, [{ id: step.id, dueAt }]);
  services.log.warn('plan step failed; will retry', { stepId: step.id, kind: step.kind, attempt: attempts, error });
  return 'failed';
}

/**
 * A run that asked to wait (StepDeferred): scheduled again at its time, the attempt given back, fenced like finish.
 * The plan log records the first deferral for a reason, not every retry of a long wait.
 */
async function defer(services: Services, step: Leased, attempts: number, d: StepDeferred): Promise<StepOutcome> {
  const now = services.clock.now();
  const dueAt = d.retryAt.getTime() > now.getTime() ? d.retryAt : new Date(now.getTime() + 60_000);
  const requeued = await services.db.transaction(async (tx) => {
    const [before] = await tx.select({ error: planSteps.error }).from(planSteps).where(eq(planSteps.id, step.id));
    const [row] = await tx
      .update(planSteps)
      .set({ status: 'scheduled', dueAt, leaseUntil: null, error: d.reason, attempts: attempts - 1, updatedAt: now })
      .where(sql`${planSteps.id} = ${step.id}::uuid and ${planSteps.status} = 'running' and ${planSteps.attempts} = ${attempts}`)
      .returning({ id: planSteps.id });
    if (!row) return false;
    if (before?.error !== d.reason) {
      await tx.insert(planLog).values({ planId: step.plan_id, orgId: step.org_id, stepId: step.id, at: now, actor: SYSTEM_ACTOR, action: 'step.deferred', detail: { kind: step.kind, reason: d.reason, retry_at: dueAt.toISOString() } });
    }
    if (services.queue.transactional) await services.queue.enqueue(stepJob(step.id, dueAt), { tx });
    return true;
  });
  if (requeued) await publishScheduledSteps(services, [{ id: step.id, dueAt }]);
  return requeued ? 'deferred' : 'skipped';
}

/**
 * The outcome, its plan_log row and audit row, and the plan's own end (done / failed once no step is left to run)
 * in one transaction. The plan row is locked first, so two last steps finishing together see each other.
 */
async function finish(services: Services, step: Leased, attempts: number, outcome: { result: Record<string, unknown> } | { failed: string }): Promise<StepOutcome> {
  const now = services.clock.now();
  const ok = 'result' in outcome;
  const marked = await services.db.transaction(async (tx) => {
    await tx.execute(sql`select id from plans where id = ${step.plan_id}::uuid for update`);
    const [row] = await tx
      .update(planSteps)
      .set(
        ok
          ? { status: 'done', result: outcome.result, error: null, ranAt: now, leaseUntil: null, updatedAt: now }
          : { status: 'failed', error: outcome.failed, ranAt: now, leaseUntil: null, updatedAt: now },
      )
      .where(sql`${planSteps.id} = ${step.id}::uuid and ${planSteps.status} = 'running' and ${planSteps.attempts} = ${attempts}`)
      .returning({ id: planSteps.id });
    if (!row) return false;
    const detail = ok ? { kind: step.kind, attempt: attempts, result: outcome.result } : { kind: step.kind, attempt: attempts, error: outcome.failed };
    const action = ok ? 'step.done' : 'step.failed';
    await tx.insert(planLog).values({ planId: step.plan_id, orgId: step.org_id, stepId: step.id, at: now, actor: SYSTEM_ACTOR, action, detail });
    // Credits a run charged carry the step id as their reference; the run reports the amount in its result.
    const credits = ok && typeof outcome.result.credits === 'number' ? outcome.result.credits : 0;
    await writeAudit(tx, { orgId: step.org_id, actor: SYSTEM_ACTOR, action: `plan.${action}`, target: step.id, detail: { plan_id: step.plan_id, ...detail }, credits, at: now });
    await finishPlanIfLast(tx, step, now);
    return true;
  });
  if (!marked) return 'skipped';
  return ok ? 'ran' : 'failed';
}

async function finishPlanIfLast(tx: Db, step: Leased, now: Date) {
  const [counts] = await rows<{ open: number | string; failed: number | string }>(
    tx,
    sql`select count(*) filter (where status in ('waiting', 'approved', 'scheduled', 'running')) as open,
               count(*) filter (where status = 'failed') as failed
        from plan_steps where plan_id = ${step.plan_id}::uuid`,
  );
  if (Number(counts.open) > 0) return;
  const status: PlanStatus = Number(counts.failed) > 0 ? 'failed' : 'done';
  const [plan] = await tx
    .update(plans)
    .set({ status, updatedAt: now })
    .where(sql`${plans.id} = ${step.plan_id}::uuid and ${plans.status} = 'approved'`)
    .returning({ id: plans.id });
  if (!plan) return;
  const detail = { failed_steps: Number(counts.failed) };
  await tx.insert(planLog).values({ planId: step.plan_id, orgId: step.org_id, stepId: null, at: now, actor: SYSTEM_ACTOR, action: `plan.${status}`, detail });
  await writeAudit(tx, { orgId: step.org_id, actor: SYSTEM_ACTOR, action: `plan.${status}`, target: step.plan_id, detail, at: now });
}

/** For readers that want the step's row after a run (tests, the sim clock's report). */
export async function stepRow(db: Db, id: string) {
  const [row] = await db.select().from(planSteps).where(eq(planSteps.id, id));
  return row;
}
