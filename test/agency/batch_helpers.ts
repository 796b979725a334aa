// Batches driven through both faces, with written mails put in directly: writing is another part of this issue
// (start_writing), and these tests are about composing, reviewing, approving and skipping.
import { and, eq, inArray } from 'drizzle-orm';
import { expect } from 'vitest';
import { auditLog, batchLeads, batches, poolLeads, type WrittenMail } from '../../schema';
import type { TestEnv } from '../helpers/harness';
import { addPoolLeads, studioTenant, type PoolLeadInput, type StudioTenant } from './pool_reads_helpers';

export { addPoolLeads, studioTenant, type StudioTenant };

/** A written first mail whose sentences carry sources; `unsourced` sentences get source null. */
export function mailOf(step = 1, opts: { unsourced?: string[]; extra?: string[] } = {}): WrittenMail {
  const sentences = [
    { text: 'Hi Mia,', source: { kind: 'sequence' as const, ref: 'step 1' } },
    { text: 'Saw your launch of the new plan.', source: { kind: 'field' as const, ref: 'hook' } },
    { text: 'We help teams like yours book more calls.', source: { kind: 'playbook' as const, ref: 'v1' } },
    ...(opts.extra ?? []).map((text) => ({ text, source: { kind: 'docs' as const, ref: 'pricing' } })),
    ...(opts.unsourced ?? []).map((text) => ({ text, source: null })),
    { text: 'Best, Anna', source: { kind: 'sequence' as const, ref: `step ${step}` } },
  ];
  return { step, subject: step === 1 ? 'Quick idea' : null, delay_days: step === 1 ? 0 : 3, sentences, body: sentences.map((s) => s.text).join('\n\n') };
}

/** Writes mails for leads of a batch as the writer would (mails, written_at, writes), without the writer. */
export async function writeMails(env: TestEnv, batchId: string, leadIds: string[], mails: WrittenMail[] = [mailOf(1), mailOf(2)]) {
  for (const id of leadIds) {
    await env.services.db
      .update(batchLeads)
      .set({ mails, writtenAt: new Date(), writes: 1 })
      .where(and(eq(batchLeads.batchId, batchId), eq(batchLeads.poolLeadId, id)));
  }
  await env.services.db.update(batches).set({ status: 'written' }).where(eq(batches.id, batchId));
}

/** Both calls of a two-step tool through MCP: the preview must carry a token; the confirmed JSON. */
export async function confirmTool(a: StudioTenant, name: string, args: Record<string, unknown>) {
  const preview = await a.tool(name, args);
  expect(preview.isError, `${name}: ${preview.text.slice(0, 400)}`).toBe(false);
  expect(preview.json.confirm_token, `${name}: ${preview.text.slice(0, 400)}`).toEqual(expect.any(String));
  const done = await a.tool(name, { ...args, confirm_token: preview.json.confirm_token });
  expect(done.isError, `${name} confirm: ${done.text.slice(0, 400)}`).toBe(false);
  return done.json;
}

/** Both calls of a two-step route through REST; the confirmed JSON. */
export async function confirmRest(a: StudioTenant, path: string, body: Record<string, unknown> = {}) {
  const preview = await a.rest('POST', path, body);
  expect(preview.status, preview.text.slice(0, 400)).toBe(200);
  expect(preview.json.confirm_token, preview.text.slice(0, 400)).toEqual(expect.any(String));
  const done = await a.rest('POST', path, { ...body, confirm_token: preview.json.confirm_token });
  expect(done.status, done.text.slice(0, 400)).toBe(200);
  return done.json;
}

/** Allocates `n` fresh leads into a new open batch (via MCP) and returns the batch and its leads in order. */
export async function allocated(env: TestEnv, a: StudioTenant, n: number, extra: PoolLeadInput = {}) {
  const leads = await addPoolLeads(env, a.t, Array.from({ length: n }, () => ({ ...extra })));
  const { batch } = await confirmTool(a, 'allocate_batch', { client_id: a.t.client.id, size: n });
  expect(batch.leads).toBe(n);
  return { batch, leads };
}

export const poolStatuses = async (env: TestEnv, ids: string[]) => {
  const rows = await env.services.db.select({ id: poolLeads.id, status: poolLeads.status }).from(poolLeads).where(inArray(poolLeads.id, ids));
  const byId = new Map(rows.map((r) => [r.id, r.status]));
  return ids.map((id) => byId.get(id));
};

export const auditActions = async (env: TestEnv, orgId: string) =>
  (await env.services.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.orgId, orgId))).map((r) => r.action);
