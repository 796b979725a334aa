// The signal tools (read_signals, estimate_signals, run_signals) on both faces: the estimate's upper bound, the
// two-step run going in rounds as queued jobs, credits charged exactly once per lead with a signal found (never
// again for the same lead and kinds that day, never on a repeated confirm or round), signals stored without
// duplicates, the simulation's faults (fail-, slow-), credits running out (waiting_continue, continue), tenant
// isolation, and the admin sim rows. Which leads have signals is read from the simulation's own truth
// (simAllSignals with the service's SIM_SEED), so each test knows what the provider will answer.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobHandlers } from '../../functions/jobs/handlers';
import { simAllSignals } from '../../lib/ports/enrichment/sim';
import { drainJobs } from '../../lib/queue/runner';
import { runSignalsRound } from '../../lib/signals/round';
import { auditLog, enrichRunItems, enrichRuns, jobs, leadSignals, organizations, poolLeads } from '../../schema';
import { sweepStalledRuns } from '../../lib/formulas/jobs';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { mcpClient, toolCaller } from '../helpers/mcp';
import { newTenant, type Tenant } from '../helpers/tenant';

let env: TestEnv;
beforeAll(async () => {
  // A database of its own in the integration tier: its drain runs its own rounds, and no other file's drain can take
  // them half-way (seen in CI: a run still `running` after this file's drain).
  env = await startTestEnv({}, { ownDatabase: true });
});
afterAll(() => env.close());

const ALL = ['funding', 'hiring', 'news', 'tech_change'] as const;
let serial = 0;

/** Fresh domains whose simulated signals (of `kinds`) pass `want`. */
async function companies(n: number, want: (signals: number) => boolean, kinds: readonly string[] = ALL): Promise<string[]> {
  const out: string[] = [];
  while (out.length < n) {
    const d = `sig${serial++}.example.com`;
    const s = (await simAllSignals(env.config.SIM_SEED, d, env.clock.now())).filter((x) => kinds.includes(x.kind));
    if (want(s.length)) out.push(d);
  }
  return out;
}
const withSignals = (n: number, kinds?: readonly string[]) => companies(n, (k) => k > 0, kinds);
const withoutSignals = (n: number, kinds?: readonly string[]) => companies(n, (k) => k === 0, kinds);

async function agency(credits = 1000) {
  const t = await newTenant(env, { features: { agency_tools: true, studio: true } });
  await env.services.db.update(organizations).set({ credits }).where(eq(organizations.id, t.org.id));
  const key = await t.addKey({ name: 'assistant', kind: 'agency', scopes: [], rate_limit_per_minute: 1000 });
  const mcp = await mcpClient(env, key, { ip: t.ip });
  const rest = (method: string, path: string, body?: unknown) => t.call(method, path, { key, body });
  const tool = toolCaller(mcp);
  const base = `/v1/agency/clients/${t.client.id}/signals`;
  return { t, key, rest, tool, base };
}

async function addLeads(t: Tenant, list: Array<{ domain?: string | null; website?: string | null; company?: string }>, clientId = t.client.id) {
  return env.services.db
    .insert(poolLeads)
    .values(list.map((l, i) => ({ orgId: t.org.id, clientId, email: `p${serial++}x${i}@mail.example.org`, status: 'new' as const, createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, serial++)), ...l })))
    .returning();
}
const balanceOf = async (t: Tenant) => (await env.services.db.select().from(organizations).where(eq(organizations.id, t.org.id)))[0].credits;
const signalsOf = (t: Tenant) => env.services.db.select().from(leadSignals).where(eq(leadSignals.orgId, t.org.id));
const drain = () => drainJobs(env.services, jobHandlers);

/** Preview then confirm over REST; the jobs are left for the caller to drain. */
async function startRun(a: Awaited<ReturnType<typeof agency>>, body: Record<string, unknown> = {}) {
  const preview = await a.rest('POST', `${a.base}/run`, body);
  expect(preview.status, preview.text).toBe(200);
  const run = await a.rest('POST', `${a.base}/run`, { ...body, confirm_token: preview.json.confirm_token });
  expect(run.status, run.text).toBe(200);
  return { preview: preview.json, run: run.json.run, token: preview.json.confirm_token as string };
}

describe('estimate_signals', () => {
  it('counts leads with a domain (the upper bound) and without (0 credits); the same on both faces; reads only', async () => {
    const a = await agency(7);
    const [d1, d2] = await withSignals(2);
    await addLeads(a.t, [{ domain: d1 }, { website: `https://www.${d2}/about` }, { domain: null, company: 'No Domain Ltd' }]);
    const rest = await a.rest('GET', `${a.base}/estimate`);
    expect(rest.status, rest.text).toBe(200);
    expect(rest.json.estimate).toMatchObject({ leads: 3, with_domain: 2, skipped: { no_domain: 1, in_other_run: 0 }, already_paid_today: 0, max_credits: 2, balance: 7, enough_credits: true, provider: 'sim', simulated: true });
    expect(rest.json.estimate.kinds).toEqual([...ALL]);
    const mcp = await a.tool('estimate_signals', { client_id: a.t.client.id });
    expect(mcp.json).toEqual(rest.json);
    const narrowed = await a.rest('GET', `${a.base}/estimate?kinds=funding,news`);
    expect(narrowed.json.estimate.kinds).toEqual(['funding', 'news']);
    expect((await signalsOf(a.t)).length).toBe(0);
    expect(await balanceOf(a.t)).toBe(7);
  });

  it('refuses a bad kind and an unknown lead id by name, and another tenant\'s client is not found', async () => {
    const a = await agency();
    const bad = await a.rest('GET', `${a.base}/estimate?kinds=gossip`);
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toContain('kinds');
    const b = await agency();
    const [other] = await addLeads(b.t, [{ domain: 'x.example.com' }]);
    const unknown = await a.rest('GET', `${a.base}/estimate?lead_ids=${other.id}`);
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.message).toContain(other.id);
    for (const path of [`/v1/agency/clients/${b.t.client.id}/signals/estimate`, `/v1/agency/clients/${b.t.client.id}/signals`]) {
      expect((await a.rest('GET', path)).status).toBe(404);
    }
    expect((await a.rest('POST', `/v1/agency/clients/${b.t.client.id}/signals/run`, {})).status).toBe(404);
    const viaMcp = await a.tool('read_signals', { client_id: b.t.client.id });
    expect(viaMcp.isError).toBe(true);
    expect(viaMcp.text).toMatch(/^not_found/);
  });
});

describe('run_signals', () => {
  it('previews without changing anything, then runs in rounds: 1 credit per lead with a signal, stored once, read on both faces', async () => {
    const a = await agency(100);
    const found = await withSignals(3);
    const empty = await withoutSignals(2);
    const leads = await addLeads(a.t, [...[...found, ...empty].map((domain): { domain: string | null } => ({ domain })), { domain: null }]);
    const before = await balanceOf(a.t);
    const preview = await a.rest('POST', `${a.base}/run`, {});
    expect(preview.status, preview.text).toBe(200);
    expect(preview.json).toMatchObject({ credits: 5, confirm_token: expect.any(String), preview: { max_credits: 5, skipped: { no_domain: 1 }, rounds: 1, simulated: true } });
    expect(preview.json.preview.leads).toHaveLength(5);
    expect(await env.services.db.select().from(enrichRuns).where(eq(enrichRuns.orgId, a.t.org.id))).toHaveLength(0);

    const confirmed = await a.rest('POST', `${a.base}/run`, { confirm_token: preview.json.confirm_token });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.json.run).toMatchObject({ kind: 'signals', status: 'running', total: 5, processed: 0, credits: 0, credit_cap: 5 });
    // Nothing charged at the confirm: the rounds charge.
    expect(await balanceOf(a.t)).toBe(before);
    const again = await a.rest('POST', `${a.base}/run`, { confirm_token: preview.json.confirm_token });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('confirm_token_used');

    await drain();
    const [run] = await env.services.db.select().from(enrichRuns).where(eq(enrichRuns.id, confirmed.json.run.id));
    expect(run).toMatchObject({ status: 'done', processed: 5, written: 3, credits: 3, skipped: 0 });
    expect(before - (await balanceOf(a.t))).toBe(3);
    const items = await env.services.db.select().from(enrichRunItems).where(eq(enrichRunItems.runId, run.id));
    expect(items.filter((i) => i.status === 'written').map((i) => i.credits)).toEqual([1, 1, 1]);
    expect(items.filter((i) => i.status === 'empty')).toHaveLength(2);

    const stored = await signalsOf(a.t);
    const expected = (await Promise.all(found.map((d) => simAllSignals(env.config.SIM_SEED, d, env.clock.now())))).flat();
    expect(stored.map((s) => s.title).sort()).toEqual(expected.map((s) => s.title).sort());
    expect(new Set(stored.map((s) => s.leadId))).toEqual(new Set(leads.slice(0, 3).map((l) => l.id)));

    const read = await a.rest('GET', `${a.base}?limit=2`);
    expect(read.status, read.text).toBe(200);
    expect(read.json.leads).toHaveLength(2);
    expect(read.json.next_offset).toBe(2);
    const page2 = await a.rest('GET', `${a.base}?limit=2&offset=2`);
    expect(page2.json.leads).toHaveLength(1);
    expect(page2.json.next_offset).toBeNull();
    const mcp = await a.tool('read_signals', { client_id: a.t.client.id, limit: 2 });
    expect(mcp.json).toEqual(read.json);
    for (const l of [...read.json.leads, ...page2.json.leads]) for (const s of l.signals) expect(s.simulated).toBe(true);
    const funding = await a.rest('GET', `${a.base}?kinds=funding&lead_ids=${leads[0].id}`);
    for (const l of funding.json.leads) expect(l.signals.every((s: { kind: string }) => s.kind === 'funding')).toBe(true);

    const audit = await env.services.db.select().from(auditLog).where(and(eq(auditLog.orgId, a.t.org.id), eq(auditLog.action, 'signals.round')));
    expect(audit.reduce((n, r) => n + r.credits, 0)).toBe(3);
    const sim = await a.t.admin('GET', `/admin/v1/orgs/${a.t.org.id}/sim/enrichment_calls`);
    expect(sim.status, sim.text).toBe(200);
    expect(sim.json.rows.filter((r: { operation: string }) => r.operation === 'signals')).toHaveLength(5);
    expect(sim.json.rows.every((r: { simulated: boolean; cost_micros: number }) => r.simulated && r.cost_micros === 0)).toBe(true);
  });

  it('a second run the same day for the same leads and kinds charges nothing and stores no duplicate; a repeated round changes nothing', async () => {
    const a = await agency(100);
    const found = await withSignals(2);
    await addLeads(a.t, found.map((domain) => ({ domain })));
    const first = await startRun(a);
    await drain();
    const afterFirst = await balanceOf(a.t);
    const storedFirst = (await signalsOf(a.t)).length;

    const est = await a.tool('estimate_signals', { client_id: a.t.client.id });
    expect(est.json.estimate).toMatchObject({ already_paid_today: 2, max_credits: 0 });
    const second = await startRun(a);
    expect(second.preview).toMatchObject({ credits: 0, preview: { already_paid_today: 2, max_credits: 0 } });
    await drain();
    const [run2] = await env.services.db.select().from(enrichRuns).where(eq(enrichRuns.id, second.run.id));
    expect(run2).toMatchObject({ status: 'done', written: 2, credits: 0 });
    expect(await balanceOf(a.t)).toBe(afterFirst);
    expect((await signalsOf(a.t)).length).toBe(storedFirst);

    // A retried job of a finished run: no item pending, nothing moves.
    const again = await runSignalsRound(env.services, { orgId: a.t.org.id, runId: first.run.id, actor: 'system', now: env.clock.now(), queueNext: true });
    expect(again).toMatchObject({ leads: 0, credits: 0 });
    expect(await balanceOf(a.t)).toBe(afterFirst);

    // Other kinds are other work: paid again.
    const third = await startRun(a, { kinds: ['funding'] });
    expect(third.preview.preview.already_paid_today).toBe(0);
  });

  it('concurrent rounds of one run look leads up at most twice but store, count and charge each once', async () => {
    const a = await agency(100);
    // More leads than one round: the run stays running after the first commit, so only the item claim protects.
    const found = await withSignals(27);
    await addLeads(a.t, found.map((domain) => ({ domain })));
    const { run } = await startRun(a);
    const o = { orgId: a.t.org.id, runId: run.id, actor: 'system', now: env.clock.now(), queueNext: false };
    await Promise.all([runSignalsRound(env.services, o), runSignalsRound(env.services, o), runSignalsRound(env.services, o)]);
    let [after] = await env.services.db.select().from(enrichRuns).where(eq(enrichRuns.id, run.id));
    expect(after).toMatchObject({ status: 'running', processed: 25, written: 25, credits: 25 });
    await runSignalsRound(env.services, o);
    [after] = await env.services.db.select().from(enrichRuns).where(eq(enrichRuns.id, run.id));
    expect(after).toMatchObject({ status: 'done', processed: 27, written: 27, credits: 27 });
    expect(await balanceOf(a.t)).toBe(73);
    expect((await signalsOf(a.t)).length).toBe(new Set((await signalsOf(a.t)).map((s) => `${s.leadId}|${s.kind}|${s.title}`)).size);
  });

  it('fail- leads fail without a charge; slow- leads wait for Retry-After and are found in a later round', async () => {
    const a = await agency(100);
    const [ok] = await withSignals(1);
    // slow-/fail- prefixes change the hash: pick a slow- domain the simulation has signals for.
    let slow = '';
    for (let i = 0; !slow; i++) {
      const d = `slow-sig${serial++}.example.com`;
      if ((await simAllSignals(env.config.SIM_SEED, d, env.clock.now())).length > 0) slow = d;
    }
    const [lOk, lFail, lSlow] = await addLeads(a.t, [{ domain: ok }, { domain: 'fail-broken.example.com' }, { domain: slow }]);
    const { run } = await startRun(a);
    await drain();
    let [state] = await env.services.db.select().from(enrichRuns).where(eq(enrichRuns.id, run.id));
    expect(state).toMatchObject({ status: 'running', processed: 2, written: 1, credits: 1 });
    expect(state.lastError).toContain('fail-');
    env.clock.advance(31_000);
    await drain();
    [state] = await env.services.db.select().from(enrichRuns).where(eq(enrichRuns.id, run.id));
    expect(state).toMatchObject({ status: 'done', processed: 3, written: 2, credits: 2 });
    const items = new Map((await env.services.db.select().from(enrichRunItems).where(eq(enrichRunItems.runId, run.id))).map((i) => [i.leadId, i]));
    expect([items.get(lOk.id)!.status, items.get(lFail.id)!.status, items.get(lSlow.id)!.status]).toEqual(['written', 'failed', 'written']);
    expect(items.get(lFail.id)!.credits).toBe(0);
  });

  it('when credits run out the run waits (never a negative balance) and continue resumes it after a top-up', async () => {
    const a = await agency(2);
    const found = await withSignals(4);
    await addLeads(a.t, found.map((domain) => ({ domain })));
    const preview = await a.rest('POST', `${a.base}/run`, {});
    // The first round can charge 4 and the balance is 2: the preview cannot be confirmed.
    expect(preview.json).toMatchObject({ confirm_token: null, blocked_by: 'insufficient_credits', credits: 4 });
    await env.services.db.update(organizations).set({ credits: 4 }).where(eq(organizations.id, a.t.org.id));
    const { run } = await startRun(a);
    // Spent elsewhere before the round runs: the round looks nothing up and the run waits.
    await env.services.db.update(organizations).set({ credits: 3 }).where(eq(organizations.id, a.t.org.id));
    await drain();
    let [state] = await env.services.db.select().from(enrichRuns).where(eq(enrichRuns.id, run.id));
    expect(state).toMatchObject({ status: 'waiting_continue', processed: 0, credits: 0 });
    expect(state.lastError).toContain('insufficient_credits');
    expect(await balanceOf(a.t)).toBe(3);
    await env.services.db.update(organizations).set({ credits: 10 }).where(eq(organizations.id, a.t.org.id));
    // get_run's continue (POST on the run's path) dispatches a signals run to its own round.
    const resumed = await a.rest('POST', `/v1/agency/clients/${a.t.client.id}/runs/${run.id}`, { continue: true });
    expect(resumed.status, resumed.text).toBe(200);
    expect(resumed.json.run).toMatchObject({ id: run.id, kind: 'signals' });
    await drain();
    [state] = await env.services.db.select().from(enrichRuns).where(eq(enrichRuns.id, run.id));
    expect(state).toMatchObject({ status: 'done', processed: 4, written: 4, credits: 4 });
    expect(await balanceOf(a.t)).toBe(6);
  });

  it('a run whose next round was lost (a failed publish) is picked up by the runs sweep and finishes', async () => {
    const a = await agency(50);
    const found = await withSignals(3);
    await addLeads(a.t, found.map((domain) => ({ domain })));
    const { run } = await startRun(a);
    // The queued round never arrives, and the run has not moved for longer than the sweep waits.
    await env.services.db.delete(jobs).where(sql`${jobs.payload}->>'run_id' = ${run.id}`);
    await env.services.db.update(enrichRuns).set({ updatedAt: new Date(env.clock.now().getTime() - 11 * 60_000) }).where(eq(enrichRuns.id, run.id));
    await sweepStalledRuns(env.services);
    await drain();
    const [state] = await env.services.db.select().from(enrichRuns).where(eq(enrichRuns.id, run.id));
    expect(state).toMatchObject({ status: 'done', processed: 3, written: 3, credits: 3 });
  });

  it('through MCP: preview, confirm and the run on the tool face; a bad kind names the argument', async () => {
    const a = await agency(50);
    const [d] = await withSignals(1, ['hiring']);
    await addLeads(a.t, [{ domain: d }]);
    const preview = await a.tool('run_signals', { client_id: a.t.client.id, kinds: ['hiring'] });
    expect(preview.isError, preview.text).toBe(false);
    expect(preview.json).toMatchObject({ credits: 1, preview: { kinds: ['hiring'] } });
    const run = await a.tool('run_signals', { client_id: a.t.client.id, kinds: ['hiring'], confirm_token: preview.json.confirm_token });
    expect(run.isError, run.text).toBe(false);
    expect(run.json.run).toMatchObject({ kind: 'signals', signal_kinds: ['hiring'] });
    await drain();
    expect((await signalsOf(a.t)).every((s) => s.kind === 'hiring')).toBe(true);
    const bad = await a.tool('run_signals', { client_id: a.t.client.id, kinds: ['weather'] });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/^validation_error: .*kinds/);
  });
});
