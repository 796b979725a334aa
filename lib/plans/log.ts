import { planLog } from '../../schema';
import { writeAudit } from '../agency/audit';
import type { Db } from '../db/types';
import type { PlanActor } from './rows';

/**
 * One change of a plan, on the record twice in the change's transaction: the plan log (what get_plan shows) and
 * the organization's audit log (who did it, with the key or the person).
 */
export async function recordPlanChange(
  tx: Db,
  who: Pick<PlanActor, 'orgId' | 'actor' | 'now' | 'detail'>,
  e: { planId: string; stepId?: string | null; action: string; detail?: Record<string, unknown>; credits?: number },
  opts: { audit?: boolean } = {},
) {
  const detail = { ...(who.detail ?? {}), ...(e.detail ?? {}) };
  await tx.insert(planLog).values({ planId: e.planId, orgId: who.orgId, stepId: e.stepId ?? null, at: who.now, actor: who.actor, action: e.action, detail });
  // A two-step tool's confirm writes its audit row itself (lib/agency/confirm.ts): one row per decision.
  if (opts.audit === false) return;
  await writeAudit(tx, {
    orgId: who.orgId,
    actor: who.actor,
    action: `plan.${e.action}`,
    target: e.stepId ? `plan_step:${e.stepId}` : `plan:${e.planId}`,
    detail: { plan_id: e.planId, ...detail },
    credits: e.credits,
    at: who.now,
  });
}
