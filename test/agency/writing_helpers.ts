// A Studio tenant with a sequence, pool leads and an open batch made directly in the tables (allocate_batch is
// another tool's business), for the writing and learned-rule tests on both faces.
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { batchLeads, batches, batchWrites, creditLedger, organizations, poolLeads } from '../../schema';
import type { TestEnv } from '../helpers/harness';
import { mcpClient, toolCaller } from '../helpers/mcp';
import { newTenant } from '../helpers/tenant';

export const STEPS = [
  { subject: 'Quick idea for {{company}}', body: 'Hi {{first_name}},\n\n{{hook}}\n\nI hope this finds you well. We help teams like yours send fewer, better mails.\n\n{{sender.name}}', delay_days: 0 },
  { body: 'Hi {{first_name}}, any thoughts on my last note? Best regards,\n{{sender.name}}', delay_days: 3 },
];

let serial = 0;

export async function writingTenant(env: TestEnv, opts: { steps?: unknown; scopes?: string[] } = {}) {
  const t = await newTenant(env, { features: { agency_tools: true, studio: true } });
  const key = await t.addKey({ name: 'assistant', kind: 'agency', scopes: opts.scopes ?? [], rate_limit_per_minute: 1000 });
  const mcp = await mcpClient(env, key, { ip: t.ip });
  const rest = (method: string, path: string, body?: unknown) => t.call(method, path, { key, body });
  const tool = toolCaller(mcp);
  const base = `/v1/agency/clients/${t.client.id}`;
  const db = env.services.db;
  const seq = await rest('PUT', `${base}/sequence`, { steps: opts.steps ?? STEPS });
  expect(seq.status, seq.text).toBe(200);

  const addLeads = async (n: number, extra: (i: number) => Partial<typeof poolLeads.$inferInsert> = () => ({}), clientId = t.client.id) => {
    const values = Array.from({ length: n }, (_, i) => {
      const k = serial++;
      return { orgId: t.org.id, clientId, email: `p${k}@lead${k}.example.org`, firstName: `Name${k}`, company: `Company ${k}`, hook: `Saw your team doubled its outbound this spring.`, status: 'in_batch' as const, ...extra(i) };
    });
    return db.insert(poolLeads).values(values).returning();
  };
  /** An allocated batch of these pool leads, in this order. */
  const makeBatch = async (leadIds: string[], clientId = t.client.id) => {
    const [batch] = await db.insert(batches).values({ orgId: t.org.id, clientId, size: leadIds.length, createdBy: 'test' }).returning();
    await db.insert(batchLeads).values(leadIds.map((id, i) => ({ batchId: batch.id, poolLeadId: id, orgId: t.org.id, clientId, position: i + 1 })));
    return batch;
  };
  const setCredits = (credits: number) => db.update(organizations).set({ credits }).where(eq(organizations.id, t.org.id));
  const balance = async () => (await db.select({ c: organizations.credits }).from(organizations).where(eq(organizations.id, t.org.id)))[0].c;
  const leadRows = (batchId: string) => db.select().from(batchLeads).where(eq(batchLeads.batchId, batchId)).orderBy(batchLeads.position);
  const batchRow = async (batchId: string) => (await db.select().from(batches).where(eq(batches.id, batchId)))[0];
  const writes = (batchId: string) => db.select().from(batchWrites).where(eq(batchWrites.batchId, batchId)).orderBy(batchWrites.at);
  const charges = (reason: string) => db.select().from(creditLedger).where(and(eq(creditLedger.orgId, t.org.id), eq(creditLedger.reason, reason)));
  /** start_writing's two calls over REST: the preview (which must carry a token) and the confirm. */
  const write = async (body: Record<string, unknown> = {}) => {
    const preview = await rest('POST', `${base}/batch/start-writing`, body);
    expect(preview.status, preview.text).toBe(200);
    expect(preview.json.confirm_token, preview.text).toEqual(expect.any(String));
    const done = await rest('POST', `${base}/batch/start-writing`, { ...body, confirm_token: preview.json.confirm_token });
    return { preview: preview.json, done };
  };
  return { t, key, rest, tool, base, db, addLeads, makeBatch, setCredits, balance, leadRows, batchRow, writes, charges, write };
}
export type WritingTenant = Awaited<ReturnType<typeof writingTenant>>;
