import { and, eq } from 'drizzle-orm';
import { auditLog } from '../../../schema';
import { writeAudit } from '../../agency/audit';
import type { Db } from '../../db/types';
import type { StepContext } from '../step_kind';

export const STEP_EFFECT = 'plan.step_effect';

/**
 * Runs a step's change once per step id: the change and an audit row naming the step commit together, and a second
 * run of the same step (a crash after the change but before the step was marked done, a duplicated delivery that
 * slipped past the lease) finds that row and answers the first run's result instead of changing anything again.
 */
export async function oncePerStep(ctx: StepContext, kind: string, change: (tx: Db) => Promise<Record<string, unknown>>): Promise<Record<string, unknown>> {
  return ctx.services.db.transaction(async (tx) => {
    const target = `plan_step:${ctx.stepId}`;
    const [earlier] = await tx
      .select({ detail: auditLog.detail })
      .from(auditLog)
      .where(and(eq(auditLog.orgId, ctx.orgId), eq(auditLog.action, STEP_EFFECT), eq(auditLog.target, target)))
      .limit(1);
    if (earlier) return (earlier.detail as { result?: Record<string, unknown> }).result ?? {};
    const result = await change(tx);
    await writeAudit(tx, { orgId: ctx.orgId, actor: ctx.actor, action: STEP_EFFECT, target, detail: { plan_id: ctx.planId, client_id: ctx.clientId, kind, result }, at: ctx.now });
    return result;
  });
}
