// Follow-up tests: plan through the admin API, run what the queue has due (the embedded scheduler's jobs rows).
import { expect } from 'vitest';
import { jobHandlers } from '../../functions/jobs/handlers';
import { drainJobs } from '../../lib/queue/runner';
import type { TestEnv } from '../helpers/harness';
import type { Tenant } from '../helpers/tenant';

export async function plan(t: Tenant, replyId: string, o: { kind?: 'followup' | 'checkin'; dueInMs?: number; body?: string; now: Date }) {
  const r = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/followups`, {
    reply_id: replyId,
    kind: o.kind ?? 'followup',
    due_at: new Date(o.now.getTime() + (o.dueInMs ?? 3_600_000)).toISOString(),
    body: o.body ?? 'Just checking in: did you get a chance to look at the proposal?',
  });
  expect(r.status, r.text).toBe(201);
  return r.json.followup as { id: string; lead_id: string; status: string; reason: string | null; kind: string; due_at: string };
}

export async function followupsOf(t: Tenant, leadId?: string) {
  const r = await t.admin('GET', `/admin/v1/orgs/${t.org.id}/followups${leadId ? `?lead_id=${leadId}` : ''}`);
  expect(r.status).toBe(200);
  return r.json.followups as Array<{ id: string; status: string; reason: string | null; kind: string; attempts: number; next_attempt_at: string | null }>;
}

export const byId = async (t: Tenant, id: string) => (await followupsOf(t)).find((f) => f.id === id)!;

/** Moves the test clock forward and runs every job that is due by then. */
export async function runDue(env: TestEnv, advanceMs = 0) {
  env.clock.advance(advanceMs);
  return drainJobs(env.services, jobHandlers);
}
