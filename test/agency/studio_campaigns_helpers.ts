// Rows a Studio campaign starts from, inserted directly (the batch and writing tools are tested in their own files):
// a Studio tenant whose agency key may approve plans, sending mailboxes attached to the client's campaign, and an
// approved batch of written leads. Also the push gate and the plan's approval through the real routes.
import { randomInt } from 'node:crypto';
import { expect } from 'vitest';
import { batches, batchLeads, poolLeads, type WrittenMail } from '../../schema';
import type { TestEnv } from '../helpers/harness';
import { planTenant, type PlanTenant } from '../plans/plans_helpers';
import { addDomain, addMailboxes, todayOf } from './infra_helpers';

export type StudioTenant = PlanTenant & { mailboxes: { id: string; address: string }[] };

/** A Studio tenant with `mailboxes` active mailboxes (cap each) sending for the client's campaign. */
export async function studioTenant(env: TestEnv, opts: { mailboxes?: number; cap?: number; approve?: boolean } = {}): Promise<StudioTenant> {
  const a = await planTenant(env, { approve: opts.approve });
  const list = [];
  if ((opts.mailboxes ?? 2) > 0) {
    const d = await addDomain(env, a.t.org.id, a.t.client.id);
    list.push(...(await addMailboxes(env, d, opts.mailboxes ?? 2, { status: 'active', dailyCap: opts.cap ?? 50, campaignId: a.t.campaign.id, since: todayOf(env) })));
  }
  return { ...a, mailboxes: list.map((m) => ({ id: m.id, address: m.address })) };
}

export const mailsFor = (first: string): WrittenMail[] => [
  { step: 1, subject: `Idea for ${first}`, delay_days: 0, body: `Hi ${first}, a short idea.`, sentences: [{ text: `Hi ${first}, a short idea.`, source: { kind: 'sequence', ref: 'step 1' } }] },
  { step: 2, subject: null, delay_days: 3, body: `Any thoughts, ${first}?`, sentences: [{ text: `Any thoughts, ${first}?`, source: { kind: 'sequence', ref: 'step 2' } }] },
];

/** A batch of `n` written leads of the client in `status` (default approved), each review approved unless told. */
export async function addBatch(env: TestEnv, a: PlanTenant, n: number, opts: { status?: 'allocated' | 'written' | 'approved'; clientId?: string; rejected?: number } = {}) {
  const db = env.services.db;
  const clientId = opts.clientId ?? a.t.client.id;
  const tag = randomInt(1e9).toString(36);
  const leads = await db
    .insert(poolLeads)
    .values(Array.from({ length: n }, (_, i) => ({ orgId: a.t.org.id, clientId, email: `p${i}.${tag}@co${i % 37}-${tag}.example.com`, firstName: `Ann${i}`, lastName: 'Lee', company: `Co ${i}`, domain: `co${i % 37}-${tag}.example.com`, status: 'in_batch' as const })))
    .returning();
  const [batch] = await db
    .insert(batches)
    .values({ orgId: a.t.org.id, clientId, status: opts.status ?? 'approved', size: n, sequenceVersion: 1, createdBy: 'test', approvedBy: 'test', approvedAt: env.clock.now() })
    .returning();
  await db.insert(batchLeads).values(
    leads.map((l, i) => ({
      batchId: batch.id,
      poolLeadId: l.id,
      orgId: a.t.org.id,
      clientId,
      position: i + 1,
      review: (i < (opts.rejected ?? 0) ? 'rejected' : 'approved') as 'rejected' | 'approved',
      mails: mailsFor(l.firstName!),
      writtenAt: env.clock.now(),
      writes: 1,
    })),
  );
  return { batch, leads };
}

export async function setGate(a: PlanTenant, open: boolean) {
  const r = await a.admin('PATCH', `/admin/v1/orgs/${a.t.org.id}`, { push_gate_open: open });
  expect(r.status, r.text).toBe(200);
}

/** start_campaign through REST; the 201 answer. */
export async function start(a: PlanTenant, body: Record<string, unknown> = {}) {
  const r = await a.rest('POST', `${a.base}/campaigns/start`, body);
  expect(r.status, r.text).toBe(201);
  return r.json as { studio_campaign: any; plan: any; step: any };
}

export async function approvePlan(a: PlanTenant, planId: string) {
  const { done } = await a.confirm(`/v1/agency/plans/${planId}/approve`, {});
  expect(done.status, done.text).toBe(200);
  return done.json.plan;
}
