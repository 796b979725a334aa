// A Studio tenant for the plan tools on both faces, test-only step kinds (a purchase, a costly step, one whose dry
// run fails on demand) and the queue drained on the test clock: "a day later" is clock.advance plus a drain.
import { asc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { z } from 'zod';
import { jobHandlers, jobSchedule } from '../../functions/jobs/handlers';
import { drainJobs } from '../../lib/queue/runner';
import { registerStepKind } from '../../lib/plans/registry';
import { auditLog, planLog, planSteps, plans } from '../../schema';
import type { TestEnv } from '../helpers/harness';
import { mcpClient, toolCaller } from '../helpers/mcp';
import { newTenant } from '../helpers/tenant';

/** Every run of a test kind, by step id: a step that runs twice shows up twice. */
export const testRuns: string[] = [];

export function registerPlanTestKinds() {
  registerStepKind({
    kind: 'test.buy',
    summary: (p: { what: string }) => `Buy ${p.what}`,
    params: z.object({ what: z.string().min(1) }).strict(),
    buys: true,
    undoable: false,
    credits: () => 0,
    dryRun: async () => [],
    run: async (ctx) => {
      testRuns.push(ctx.stepId);
      return { bought: true };
    },
  });
  registerStepKind({
    kind: 'test.costly',
    summary: (p: { credits: number }) => `Spend up to ${p.credits} credits`,
    params: z.object({ credits: z.number().int().min(0) }).strict(),
    buys: false,
    undoable: true,
    credits: (p: { credits: number }) => p.credits,
    dryRun: async () => [],
    run: async (ctx) => {
      testRuns.push(ctx.stepId);
      return { spent: 0 };
    },
    undo: async () => {},
  });
  registerStepKind({
    kind: 'test.check',
    summary: () => 'A step whose dry run reports what it is told',
    params: z.object({ problem: z.string().optional() }).strict(),
    buys: false,
    undoable: true,
    credits: () => 0,
    dryRun: async (_ctx, p: { problem?: string }) => (p.problem ? [p.problem] : []),
    run: async (ctx) => {
      testRuns.push(ctx.stepId);
      return {};
    },
    undo: async () => {},
  });
}

export const runsOf = (stepId: string) => testRuns.filter((id) => id === stepId).length;

/** A Studio tenant whose agency key may approve plans (approve: false leaves the scope out), on both faces. */
export async function planTenant(env: TestEnv, opts: { approve?: boolean } = {}) {
  const t = await newTenant(env, { features: { agency_tools: true, studio: true } });
  const key = await t.addKey({ name: 'assistant', kind: 'agency', scopes: opts.approve === false ? [] : ['agency.plans.approve'] });
  const mcp = await mcpClient(env, key, { ip: t.ip });
  await mcp.listTools();
  const rest = (method: string, path: string, body?: unknown) => t.call(method, path, { key, body });
  const tool = toolCaller(mcp);
  const propose = async (kind: string, params: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const r = await rest('POST', `/v1/agency/clients/${t.client.id}/plan/steps`, { kind, params, ...extra });
    expect(r.status, r.text).toBe(201);
    return r.json as { plan: any; step: any; created: boolean };
  };
  /** Both calls of a two-step REST route: the preview, then the confirm with its token. */
  const confirm = async (path: string, body: Record<string, unknown> = {}) => {
    const preview = await rest('POST', path, body);
    expect(preview.status, preview.text).toBe(200);
    expect(preview.json.confirm_token, preview.text).toEqual(expect.any(String));
    const done = await rest('POST', path, { ...body, confirm_token: preview.json.confirm_token });
    return { preview: preview.json, done };
  };
  const admin = (method: string, path: string, body?: unknown) => t.admin(method, path, body);
  const getPlan = async (id: string) => {
    const r = await rest('GET', `/v1/agency/plans/${id}`);
    expect(r.status, r.text).toBe(200);
    return r.json.plan;
  };
  return { t, key, mcp, rest, tool, propose, confirm, admin, getPlan, base: `/v1/agency/clients/${t.client.id}` };
}
export type PlanTenant = Awaited<ReturnType<typeof planTenant>>;

/** Runs every job due on the test clock (plan steps at their due time among them). */
export const drain = (env: TestEnv) => drainJobs(env.services, jobHandlers, { everyTick: jobSchedule.everyTick });

/** Moves the test clock to `at` (never back) and runs what fell due. */
export async function advanceTo(env: TestEnv, at: Date | string) {
  const ms = new Date(at).getTime() - env.clock.now().getTime();
  if (ms > 0) env.clock.advance(ms);
  await drain(env);
}

export const planLogOf = (env: TestEnv, planId: string) => env.services.db.select().from(planLog).where(eq(planLog.planId, planId)).orderBy(asc(planLog.at));
export const auditOfOrg = (env: TestEnv, orgId: string) => env.services.db.select().from(auditLog).where(eq(auditLog.orgId, orgId)).orderBy(asc(auditLog.at));
export const planRows = (env: TestEnv, clientId: string) => env.services.db.select().from(plans).where(eq(plans.clientId, clientId));
export const stepRows = (env: TestEnv, planId: string) => env.services.db.select().from(planSteps).where(eq(planSteps.planId, planId)).orderBy(asc(planSteps.position));
