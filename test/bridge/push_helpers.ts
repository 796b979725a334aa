// Shared by the table-push tests: leads seeded straight into a client's pool, a destination, a push, its items, and
// table tools that count, hold back or fail posts so a test can see what the job did.
import { randomInt } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { jobs, poolLeads, tablePushItems, tablePushes } from '../../schema';
import { drainJobs } from '../../lib/queue/runner';
import { runTablePush } from '../../lib/bridge/push_job';
import type { TablePostInput, TablePostResult, TableTool } from '../../lib/ports/table_tool/port';
import { jobHandlers } from '../../functions/jobs/handlers';
import type { TestEnv } from '../helpers/harness';
import type { Tenant } from '../helpers/tenant';

export async function seedLeads(env: TestEnv, t: Tenant, n: number, clientId = t.client.id) {
  const tag = `${Date.now().toString(36)}${randomInt(1e9)}`;
  const ids: string[] = [];
  for (let start = 0; start < n; start += 2000) {
    const values = Array.from({ length: Math.min(2000, n - start) }, (_, k) => {
      const i = start + k;
      return { orgId: t.org.id, clientId, email: `p${i}@d${i}-${tag}.com`, domain: `d${i}-${tag}.com`, company: `Company ${i}`, firstName: 'Pat', custom: { phone: `+1 555 ${i}` } };
    });
    const inserted = await env.services.db.insert(poolLeads).values(values).returning({ id: poolLeads.id });
    ids.push(...inserted.map((r) => r.id));
  }
  return ids.sort();
}

export async function setDestination(t: Tenant, url = 'https://table.example.com/hook', token?: string) {
  const r = await t.admin('PUT', `/admin/v1/clients/${t.client.id}/table-destination`, { url, ...(token && { token }) });
  if (r.status !== 200) throw new Error(`destination not set: ${r.status} ${r.text}`);
  return r.json.destination;
}

export async function startPush(t: Tenant, leadIds?: string[]) {
  const r = await t.admin('POST', `/admin/v1/clients/${t.client.id}/table-pushes`, leadIds ? { lead_ids: leadIds } : {});
  if (r.status !== 202) throw new Error(`push not created: ${r.status} ${r.text}`);
  return r.json.push as { id: string; rows: number; status: string };
}

export const pushRow = async (env: TestEnv, id: string) => (await env.services.db.select().from(tablePushes).where(eq(tablePushes.id, id)))[0];
export const itemsOf = (env: TestEnv, id: string) => env.services.db.select().from(tablePushItems).where(eq(tablePushItems.pushId, id));
export const pendingJobs = (env: TestEnv, pushId: string) =>
  env.services.db.select().from(jobs).where(sql`${jobs.kind} = 'table_push.run' and ${jobs.doneAt} is null and ${jobs.payload}->>'push_id' = ${pushId}`);

/**
 * Runs the push (its job handler, or with `viaQueue` every due job of the queue), moving the clock past each retry
 * wait, until the push has settled or `rounds` run out. The handler alone keeps one test's push from running
 * another test's leftovers through a swapped tool.
 */
export async function runPushToEnd(env: TestEnv, pushId: string, opts: { rounds?: number; viaQueue?: boolean } = {}) {
  for (let i = 0; i < (opts.rounds ?? 12); i++) {
    if (opts.viaQueue) await drainJobs(env.services, jobHandlers);
    else while ((await runTablePush(env.services, pushId)).posted > 0);
    const p = await pushRow(env, pushId);
    if (p.status === 'done' || p.status === 'failed') return p;
    env.clock.advance(130_000);
  }
  return pushRow(env, pushId);
}

/** Swaps the services' table tool for `tool` until the returned function is called. */
export function useTool(env: TestEnv, tool: TableTool) {
  const original = env.services.studio.tableTool;
  env.services.studio.tableTool = tool;
  return () => {
    env.services.studio.tableTool = original;
  };
}

/** A table tool that answers `answer(input, n)` (n: this call's number, from 1) and records every call. */
export function scriptedTool(answer: (input: TablePostInput, n: number) => TablePostResult | Promise<TablePostResult>) {
  const calls: TablePostInput[] = [];
  let inFlight = 0;
  const stats = { maxInFlight: 0 };
  const tool: TableTool = {
    kind: 'sim',
    async post(_deps, input) {
      const n = calls.push(input);
      inFlight++;
      stats.maxInFlight = Math.max(stats.maxInFlight, inFlight);
      try {
        // A turn of the event loop, so concurrent posts overlap as network calls do.
        await new Promise((resolve) => setTimeout(resolve, 5));
        return await answer(input, n);
      } finally {
        inFlight--;
      }
    },
  };
  const postsPer = () => {
    const m = new Map<string, number>();
    for (const c of calls) m.set(c.leadId, (m.get(c.leadId) ?? 0) + 1);
    return m;
  };
  return { tool, calls, stats, postsPer };
}

/** Wraps a real tool, recording each call. */
export function countingTool(inner: TableTool) {
  const calls: TablePostInput[] = [];
  const tool: TableTool = { kind: inner.kind, post: (deps, input) => (calls.push(input), inner.post(deps, input)) };
  return { tool, calls };
}

export const ok: TablePostResult = { ok: true, status: 200 };
