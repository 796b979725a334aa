// A Studio tenant driven through both faces (REST and the MCP SDK client), and pool rows written directly: the
// import pipeline is another part of this issue, and these tests are about reading the pool.
import { randomInt } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { auditLog, poolColumns, poolLeads } from '../../schema';
import type { TestEnv } from '../helpers/harness';
import { mcpClient, toolCaller } from '../helpers/mcp';
import { newTenant, type Tenant } from '../helpers/tenant';

export type PoolLeadInput = Partial<typeof poolLeads.$inferInsert>;

/** A query string of tool arguments: arrays repeat the name, as a REST client sends a list. */
export function queryOf(args: Record<string, unknown>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(args)) {
    if (v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v]) q.append(k, String(item));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** A tenant with the agency tools and the Studio module, an agency key, and both faces for that key. */
export async function studioTenant(env: TestEnv, opts: { studio?: boolean } = {}) {
  const t = await newTenant(env, { features: { agency_tools: true, studio: opts.studio ?? true } });
  const key = await t.addKey({ name: 'assistant', kind: 'agency', scopes: [] });
  const mcp = await mcpClient(env, key, { ip: t.ip });
  // Listing first makes the SDK client check every result against the tool's published outputSchema.
  await mcp.listTools();
  const rest = (method: string, path: string, body?: unknown) => t.call(method, path, { key, body });
  const tool = toolCaller(mcp);
  /** The GET route with the arguments as its query, and the tool with them as JSON: the same answer, returned. */
  const read = async (name: string, path: string, args: Record<string, unknown> = {}) => {
    const viaRest = await rest('GET', `${path}${queryOf(args)}`);
    const viaTool = await tool(name, { client_id: t.client.id, ...args });
    expect(viaRest.status, `${name} ${viaRest.text.slice(0, 300)}`).toBe(200);
    expect(viaTool.isError, viaTool.text.slice(0, 300)).toBe(false);
    expect(viaTool.json).toEqual(viaRest.json);
    return viaRest.json;
  };
  const base = `/v1/agency/clients/${t.client.id}`;
  return { t, key, mcp, rest, tool, read, base };
}
export type StudioTenant = Awaited<ReturnType<typeof studioTenant>>;

let seq = 0;
/** Pool leads of a client, created one millisecond apart in the order given (the pool's page order). */
export async function addPoolLeads(env: TestEnv, t: Tenant, leads: PoolLeadInput[], clientId = t.client.id) {
  const start = Date.now() - 3_600_000 + seq++ * 10_000;
  const rows = leads.map((l, i) => ({
    orgId: t.org.id,
    clientId,
    email: `lead${randomInt(1e9)}@example-${i}.com`,
    emailStatus: 'valid' as const,
    createdAt: new Date(start + i),
    ...l,
  }));
  return env.services.db.insert(poolLeads).values(rows).returning();
}

export async function addPoolColumn(env: TestEnv, t: Tenant, key: string, clientId = t.client.id) {
  await env.services.db.insert(poolColumns).values({ clientId, orgId: t.org.id, key, type: 'text', createdBy: 'test' });
}

/** The audit rows of the organization, oldest first. */
export const auditOf = (env: TestEnv, t: Tenant) => env.services.db.select().from(auditLog).where(eq(auditLog.orgId, t.org.id)).orderBy(asc(auditLog.at));
