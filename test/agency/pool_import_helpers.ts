// A Studio tenant for the import tests, driven through both faces (REST and the MCP SDK client).
import { and, asc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { auditLog, leadImports, poolLeads, sequencerSnapshotEmails, suppressions } from '../../schema';
import type { TestEnv } from '../helpers/harness';
import { mcpClient, toolCaller } from '../helpers/mcp';
import { newTenant } from '../helpers/tenant';

export async function importTenant(env: TestEnv, opts: { studio?: boolean } = {}) {
  const t = await newTenant(env, { features: { agency_tools: true, studio: opts.studio ?? true } });
  const key = await t.addKey({ name: 'assistant', kind: 'agency', scopes: [] });
  const mcp = await mcpClient(env, key, { ip: t.ip });
  // Listing first makes the SDK client check every result against the tool's published outputSchema.
  await mcp.listTools();
  const rest = (method: string, path: string, body?: unknown) => t.call(method, path, { key, body });
  const tool = toolCaller(mcp);
  const base = `/v1/agency/clients/${t.client.id}`;
  const db = env.services.db;
  return {
    t,
    key,
    mcp,
    rest,
    tool,
    base,
    /** import_leads mode commit through REST: the preview, then the confirm with its token. */
    async commit(body: Record<string, unknown>, clientId = t.client.id) {
      const path = `/v1/agency/clients/${clientId}/leads/import`;
      const first = await rest('POST', path, { mode: 'commit', ...body });
      expect(first.status, first.text.slice(0, 400)).toBe(200);
      expect(first.json.confirm_token).toEqual(expect.any(String));
      const done = await rest('POST', path, { mode: 'commit', ...body, confirm_token: first.json.confirm_token });
      return { preview: first.json, ...done };
    },
    /** update_leads through REST: the preview, then the confirm. */
    async enrich(leads: Record<string, unknown>[]) {
      const first = await rest('POST', `${base}/leads/enrich`, { leads });
      expect(first.status, first.text.slice(0, 400)).toBe(200);
      const done = await rest('POST', `${base}/leads/enrich`, { leads, confirm_token: first.json.confirm_token });
      return { preview: first.json, ...done };
    },
    pool: (clientId = t.client.id) => db.select().from(poolLeads).where(eq(poolLeads.clientId, clientId)).orderBy(asc(poolLeads.createdAt), asc(poolLeads.email)),
    imports: (clientId = t.client.id) => db.select().from(leadImports).where(eq(leadImports.clientId, clientId)),
    audit: async () => (await db.select().from(auditLog).where(eq(auditLog.orgId, t.org.id)).orderBy(asc(auditLog.at))).filter((e) => /^(key|mcp|admin)/.test(e.actor)),
    neverMail: (kind: 'email' | 'domain', value: string, clientId: string | null = t.client.id) =>
      db.insert(suppressions).values({ orgId: t.org.id, clientId, kind, value, reason: 'manual', createdBy: 'test' }),
    snapshot: (emails: string[], clientId = t.client.id) =>
      db.insert(sequencerSnapshotEmails).values(emails.map((email) => ({ clientId, email }))),
    lead: async (email: string) => (await db.select().from(poolLeads).where(and(eq(poolLeads.clientId, t.client.id), eq(poolLeads.email, email))))[0],
  };
}
export type ImportTenant = Awaited<ReturnType<typeof importTenant>>;

let n = 0;
/** A row a table would send, with an address unique to this run. */
export const row = (o: Record<string, unknown> = {}) => {
  n++;
  return { email: `person${n}.${Date.now() % 1e6}@company${n}.com`, first_name: `First${n}`, last_name: 'Last', company: `Company ${n}`, title: 'Head of Sales', ...o };
};
