import { desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { planLog } from '../../schema';
import type { Db } from '../db/types';
import { stepKind } from './registry';
import { stepsOf, type PlanRow, type StepRow } from './rows';

export const PLAN_STATUSES = ['waiting_approval', 'approved', 'paused', 'dismissed', 'done', 'failed'] as const;
export const STEP_STATUSES = ['waiting', 'approved', 'scheduled', 'running', 'done', 'failed', 'undone'] as const;
/** How many plan-log rows get_plan shows (newest first). */
export const LOG_ROWS = 50;

export const DryRunSchema = z.object({ ok: z.boolean(), problems: z.array(z.string()), at: z.string() });

export const StepSchema = z.object({
  id: z.string(),
  position: z.number().int(),
  kind: z.string(),
  summary: z.string(),
  params: z.record(z.string(), z.unknown()),
  day: z.number().int().describe('offset in days from approval; the step runs at 08:00 in the organization timezone on that day'),
  due_at: z.string().nullable(),
  status: z.enum(STEP_STATUSES),
  buys: z.boolean().describe('spends money outside the service (domains, mailboxes): never approved by scope free_steps, never undoable'),
  undoable: z.boolean(),
  credits: z.number().int().describe('credits the step may charge when it runs'),
  result: z.record(z.string(), z.unknown()).nullable(),
  error: z.string().nullable(),
  ran_at: z.string().nullable(),
  undone_at: z.string().nullable(),
});

export const LogSchema = z.object({ at: z.string(), actor: z.string(), action: z.string(), step_id: z.string().nullable(), detail: z.record(z.string(), z.unknown()) });

export const PlanSummarySchema = z.object({
  id: z.string(),
  client_id: z.string(),
  title: z.string(),
  status: z.enum(PLAN_STATUSES),
  revision: z.number().int().describe('moves on every change; a confirm token issued before a change is stale'),
  approval_scope: z.enum(['all', 'free_steps']).nullable(),
  approved_at: z.string().nullable(),
  approved_by: z.string().nullable(),
  dismissed_until: z.string().nullable(),
  dry_run: DryRunSchema.nullable(),
  created_by: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const PlanSchema = PlanSummarySchema.extend({ steps: z.array(StepSchema), log: z.array(LogSchema) });
export type PlanView = z.infer<typeof PlanSchema>;
export type StepView = z.infer<typeof StepSchema>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function stepSummary(s: Pick<StepRow, 'kind' | 'params'>): string {
  const kind = stepKind(s.kind);
  const parsed = kind?.params.safeParse(s.params);
  return kind && parsed?.success ? kind.summary(parsed.data) : s.kind;
}

export const stepView = (s: StepRow): StepView => ({
  id: s.id,
  position: s.position,
  kind: s.kind,
  summary: stepSummary(s),
  params: s.params,
  day: s.day,
  due_at: iso(s.dueAt),
  status: s.status,
  buys: s.buys,
  undoable: s.undoable,
  credits: s.credits,
  result: s.result ?? null,
  error: s.error ?? null,
  ran_at: iso(s.ranAt),
  undone_at: iso(s.undoneAt),
});

export const planSummaryView = (p: PlanRow): z.infer<typeof PlanSummarySchema> => ({
  id: p.id,
  client_id: p.clientId,
  title: p.title,
  status: p.status,
  revision: p.revision,
  approval_scope: p.approvalScope ?? null,
  approved_at: iso(p.approvedAt),
  approved_by: p.approvedBy ?? null,
  dismissed_until: iso(p.dismissedUntil),
  dry_run: p.dryRun ?? null,
  created_by: p.createdBy,
  created_at: p.createdAt.toISOString(),
  updated_at: p.updatedAt.toISOString(),
});

/** The whole plan as get_plan and every plan tool answer it. */
export async function planView(db: Db, plan: PlanRow): Promise<PlanView> {
  const steps = await stepsOf(db, plan.id);
  const log = await db.select().from(planLog).where(eq(planLog.planId, plan.id)).orderBy(desc(planLog.at), desc(planLog.id)).limit(LOG_ROWS);
  return {
    ...planSummaryView(plan),
    steps: steps.map(stepView),
    log: log.map((l) => ({ at: l.at.toISOString(), actor: l.actor, action: l.action, step_id: l.stepId ?? null, detail: l.detail })),
  };
}
