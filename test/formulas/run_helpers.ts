// Shared setup of the formula-run tests: an agency tenant (Studio on) with REST and MCP faces, pool leads, a recipe
// with a live version written straight to its tables (the recipe tools have their own tests), and job draining.
import { and, asc, eq, sql } from 'drizzle-orm';
import { jobHandlers, jobSchedule } from '../../functions/jobs/handlers';
import { drainJobs } from '../../lib/queue/runner';
import { auditLog, creditLedger, enrichRunItems, enrichRuns, organizations, poolLeads, recipes, recipeVersions } from '../../schema';
import type { TestEnv } from '../helpers/harness';
import { mcpClient, toolCaller } from '../helpers/mcp';
import { newTenant, type Tenant } from '../helpers/tenant';

let serial = 0;

export async function agencyTenant(env: TestEnv, opts: { credits?: number; paying?: boolean; dailyCreditLimit?: number } = {}) {
  const t = await newTenant(env, { features: { agency_tools: true, studio: true } });
  const set = { ...(opts.credits !== undefined && { credits: opts.credits }), ...(opts.paying !== undefined && { paying: opts.paying }) };
  if (Object.keys(set).length) await env.services.db.update(organizations).set(set).where(eq(organizations.id, t.org.id));
  const key = await t.addKey({ name: 'assistant', kind: 'agency', scopes: [], rate_limit_per_minute: 5000, daily_credit_limit: opts.dailyCreditLimit ?? 100_000 });
  const mcp = await mcpClient(env, key, { ip: t.ip });
  const rest = (method: string, path: string, body?: unknown, k = key) => t.call(method, path, { key: k, body });
  const tool = toolCaller(mcp);
  return { t, key, mcp, rest, tool };
}
export type Agency = Awaited<ReturnType<typeof agencyTenant>>;

export async function addLeads(env: TestEnv, t: Tenant, list: Partial<typeof poolLeads.$inferInsert>[], clientId = t.client.id) {
  const rows = list.map((l) => {
    const i = serial++;
    return {
      orgId: t.org.id,
      clientId,
      email: `lead${i}-${t.org.id.slice(0, 8)}@example.com`,
      status: 'new' as const,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, i)),
      ...l,
    };
  });
  return env.services.db.insert(poolLeads).values(rows).returning();
}

/** A recipe whose version 1 is live (and, with `draft`, a version 2 draft). */
export async function liveRecipe(env: TestEnv, t: Tenant, steps: Record<string, unknown>[], clientId = t.client.id) {
  const [r] = await env.services.db
    .insert(recipes)
    .values({ orgId: t.org.id, clientId, name: `recipe ${serial++}`, liveVersion: 1, draftVersion: null })
    .returning();
  await env.services.db.insert(recipeVersions).values({ recipeId: r.id, version: 1, definition: { steps }, createdBy: 'test' });
  return r;
}

export const drain = (env: TestEnv) => drainJobs(env.services, jobHandlers, { everyTick: jobSchedule.everyTick });

export const balance = async (env: TestEnv, t: Tenant) => (await env.services.db.select().from(organizations).where(eq(organizations.id, t.org.id)))[0].credits;
export const leadsOf = (env: TestEnv, t: Tenant) => env.services.db.select().from(poolLeads).where(eq(poolLeads.orgId, t.org.id)).orderBy(asc(poolLeads.createdAt));
export const runRow = async (env: TestEnv, runId: string) => (await env.services.db.select().from(enrichRuns).where(eq(enrichRuns.id, runId)))[0];
export const itemsOf = (env: TestEnv, runId: string) => env.services.db.select().from(enrichRunItems).where(eq(enrichRunItems.runId, runId));
export const ledgerOf = (env: TestEnv, t: Tenant) => env.services.db.select().from(creditLedger).where(and(eq(creditLedger.orgId, t.org.id), sql`${creditLedger.reference} like 'run:%'`));
export const auditOf = (env: TestEnv, t: Tenant, action: string) => env.services.db.select().from(auditLog).where(and(eq(auditLog.orgId, t.org.id), eq(auditLog.action, action)));

/** Preview then confirm a run_formula over REST; the confirmed run. */
export async function startRun(a: Agency, recipeId: string, args: Record<string, unknown> = {}) {
  const path = `/v1/agency/clients/${a.t.client.id}/recipes/${recipeId}/run`;
  const p = await a.rest('POST', path, args);
  if (p.status !== 200 || !p.json.confirm_token) throw new Error(`preview failed: ${p.status} ${p.text}`);
  const c = await a.rest('POST', path, { ...args, confirm_token: p.json.confirm_token });
  if (c.status !== 200) throw new Error(`confirm failed: ${c.status} ${c.text}`);
  return { preview: p.json, run: c.json.run as { id: string; status: string } };
}
