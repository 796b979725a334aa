// Test-only step kinds and plan rows for the scheduler's tests, the crash proof and the benchmark. The kinds are
// registered only by the processes that import this file (never by production code paths).
import { z } from 'zod';
import { planSteps, plans } from '../../schema';
import type { Db } from '../../lib/db/types';
import { registerStepKind } from '../../lib/plans/registry';
import { createClient } from '../../lib/orgs/admin';

/** Every run of a `test.count` / `test.flaky` step, in order: step id and the clock's now as the run saw it. */
export const runs: { stepId: string; kind: string; now: Date }[] = [];
const failuresLeft = new Map<string, number>();

const CountParams = z.object({ label: z.string().optional() }).strict();
const FlakyParams = z.object({ fail_times: z.number().int().min(0) }).strict();

export function registerTestKinds() {
  registerStepKind({
    kind: 'test.count',
    summary: () => 'count a run',
    params: CountParams,
    buys: false,
    undoable: true,
    credits: () => 0,
    dryRun: async () => [],
    run: async (ctx) => {
      runs.push({ stepId: ctx.stepId, kind: 'test.count', now: ctx.now });
      return { counted: true };
    },
  });
  registerStepKind({
    kind: 'test.flaky',
    summary: (p) => `fail ${p.fail_times} times, then succeed`,
    params: FlakyParams,
    buys: false,
    undoable: true,
    credits: () => 0,
    dryRun: async () => [],
    run: async (ctx, p) => {
      runs.push({ stepId: ctx.stepId, kind: 'test.flaky', now: ctx.now });
      const left = failuresLeft.get(ctx.stepId) ?? p.fail_times;
      if (left > 0) {
        failuresLeft.set(ctx.stepId, left - 1);
        throw new Error(`flaky outside service (${left} failures left)`);
      }
      return { ok: true };
    },
  });
}

export const runsOf = (stepId: string) => runs.filter((r) => r.stepId === stepId);

export type SeededPlan = { planId: string; clientId: string; stepIds: string[] };

/** A plan in `status` with its steps (all `approved`, not yet scheduled), on a new client of the organization. */
export async function seedPlan(
  db: Db,
  orgId: string,
  steps: { kind: string; day?: number; params?: Record<string, unknown> }[],
  opts: { status?: 'approved' | 'paused' | 'waiting_approval'; now?: Date; clientId?: string } = {},
): Promise<SeededPlan> {
  const now = opts.now ?? new Date();
  const clientId = opts.clientId ?? (await createClient(db, orgId, { name: `plan client ${Math.random().toString(36).slice(2, 8)}` })).id;
  const [plan] = await db
    .insert(plans)
    .values({ orgId, clientId, title: 'test plan', status: opts.status ?? 'approved', approvalScope: 'all', approvedAt: now, approvedBy: 'test', createdBy: 'test', createdAt: now, updatedAt: now })
    .returning();
  const rows = await db
    .insert(planSteps)
    .values(steps.map((s, i) => ({ planId: plan.id, orgId, clientId, position: i, kind: s.kind, day: s.day ?? 0, params: s.params ?? {}, status: 'approved' as const, createdBy: 'test', createdAt: now, updatedAt: now })))
    .returning({ id: planSteps.id });
  return { planId: plan.id, clientId, stepIds: rows.map((r) => r.id) };
}
