// The email waterfall (estimate_find_emails, run_find_emails) on both faces: the estimate, the preview and its
// token reused round after round, credits charged exactly once per email written, never-mail at the waterfall,
// duplicates, faults of the simulated providers (fail-, slow-), token binding and expiry, a refused round writing
// nothing, tenant isolation, and the admin sim rows. Lead names are chosen by the simulation's own truth
// (simTruth with the service's SIM_SEED), so each test knows what the providers will answer.
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simTruth, type SimTruth } from '../../lib/ports/finder/sim';
import { auditLog, finderCalls, finderRuns, organizations, poolLeads, suppressions } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { mcpClient, toolCaller } from '../helpers/mcp';
import { newTenant, type Tenant } from '../helpers/tenant';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

type Person = { first: string; last: string; domain: string; truth: SimTruth };
let serial = 0;

/** People at fresh domains whose simulated truth passes `want` (the search is deterministic, so is the test). */
async function people(n: number, want: (t: SimTruth) => boolean, domainPrefix = 'co'): Promise<Person[]> {
  const out: Person[] = [];
  while (out.length < n) {
    const i = serial++;
    const p = { first: `Kim${i}`, last: `Berg${i}`, domain: `${domainPrefix}${i}.example.com` };
    const truth = await simTruth(env.config.SIM_SEED, { first_name: p.first, last_name: p.last, full_name: null, domain: p.domain });
    if (want(truth)) out.push({ ...p, truth });
  }
  return out;
}
const usable = (t: SimTruth) => t.finder !== null && !t.invalid;

async function agency(credits?: number) {
  const t = await newTenant(env, { features: { agency_tools: true, studio: true } });
  if (credits !== undefined) await env.services.db.update(organizations).set({ credits }).where(eq(organizations.id, t.org.id));
  const key = await t.addKey({ name: 'assistant', kind: 'agency', scopes: [], rate_limit_per_minute: 1000 });
  const mcp = await mcpClient(env, key, { ip: t.ip });
  await mcp.listTools();
  const rest = (method: string, path: string, body?: unknown) => t.call(method, path, { key, body });
  const tool = toolCaller(mcp);
  const run = `/v1/agency/clients/${t.client.id}/waterfall/run`;
  const estimate = `/v1/agency/clients/${t.client.id}/waterfall/estimate`;
  return { t, key, mcp, rest, tool, run, estimate };
}

async function addLeads(t: Tenant, list: Array<Partial<typeof poolLeads.$inferInsert> & { first?: string; last?: string }>, clientId = t.client.id) {
  const rows = list.map((l, i) => {
    const { first, last, ...rest } = l;
    return {
      orgId: t.org.id,
      clientId,
      firstName: first ?? null,
      lastName: last ?? null,
      status: 'waiting_for_email' as const,
      personKey: `${first ?? ''} ${last ?? ''}|${rest.domain ?? rest.website ?? i}`.toLowerCase(),
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, serial++)),
      ...rest,
    };
  });
  return env.services.db.insert(poolLeads).values(rows).returning();
}
const fromPeople = (ps: Person[]) => ps.map((p) => ({ first: p.first, last: p.last, domain: p.domain }));

const balanceOf = async (t: Tenant) => (await env.services.db.select().from(organizations).where(eq(organizations.id, t.org.id)))[0].credits;
const leadsOf = (t: Tenant) => env.services.db.select().from(poolLeads).where(eq(poolLeads.orgId, t.org.id)).orderBy(asc(poolLeads.createdAt));
const callsOf = (t: Tenant) => env.services.db.select().from(finderCalls).where(eq(finderCalls.orgId, t.org.id));
const auditOf = (t: Tenant) => env.services.db.select().from(auditLog).where(and(eq(auditLog.orgId, t.org.id), eq(auditLog.action, 'waterfall.round')));

describe('estimate_find_emails', () => {
  it('counts eligible leads, leads without inputs and leads not waiting; the same on both faces; reads only', async () => {
    const a = await agency(500);
    const ok = await people(3, () => true);
    await addLeads(a.t, [
      ...fromPeople(ok),
      { fullName: 'Grace Brewster Hopper', website: 'https://www.navy-yard.example.org/about' },
      { first: 'Solo', domain: 'one-name.example.com' },
      { first: 'No', last: 'Domain' },
      { first: 'Has', last: 'Email', domain: 'done.example.com', email: 'has@done.example.com', status: 'new' },
    ]);
    const r = await a.rest('GET', a.estimate);
    expect(r.status, r.text).toBe(200);
    expect(r.json.estimate).toEqual({
      leads: 6,
      eligible: 4,
      skipped: { missing_inputs: 2, not_waiting: 0, in_other_run: 0 },
      max_credits: 4,
      rounds: 1,
      balance: 500,
      enough_credits: true,
      providers: ['sim-alpha', 'sim-beta', 'sim-gamma'],
      simulated: true,
    });
    const m = await a.tool('estimate_find_emails', { client_id: a.t.client.id });
    expect(m.json).toEqual(r.json);
    expect(await callsOf(a.t)).toHaveLength(0);
    await a.mcp.close();
  });

  it('narrows to lead_ids (a comma list in the query); an id of another client is not_found naming it', async () => {
    const a = await agency();
    const [one, , has] = await addLeads(a.t, [
      { first: 'Ann', last: 'Lee', domain: 'a.example.com' },
      { first: 'Bo', last: 'Kim', domain: 'b.example.com' },
      { first: 'Cy', last: 'Ray', domain: 'c.example.com', email: 'cy@c.example.com', status: 'new' },
    ]);
    const r = await a.rest('GET', `${a.estimate}?lead_ids=${one.id},${has.id}`);
    expect(r.status, r.text).toBe(200);
    expect(r.json.estimate).toMatchObject({ leads: 2, eligible: 1, skipped: { not_waiting: 1 }, max_credits: 1 });
    const clientB = await a.t.addClient('Client B');
    const [elsewhere] = await addLeads(a.t, [{ first: 'Di', last: 'Fox', domain: 'd.example.com' }], clientB.id);
    const refused = await a.rest('GET', `${a.estimate}?lead_ids=${one.id},${elsewhere.id}`);
    expect(refused.status).toBe(404);
    expect(refused.json.error.message).toContain(elsewhere.id);
    const viaTool = await a.tool('estimate_find_emails', { client_id: a.t.client.id, lead_ids: [elsewhere.id] });
    expect(viaTool.isError).toBe(true);
    expect(viaTool.text).toMatch(/^not_found: .*lead_ids/);
    // Another organization's client is not_found too.
    const other = await newTenant(env, { features: { agency_tools: true, studio: true } });
    expect((await a.rest('GET', `/v1/agency/clients/${other.client.id}/waterfall/estimate`)).status).toBe(404);
    await a.mcp.close();
  });
});

describe('run_find_emails', () => {
  it('previews, then runs round after round with one token: exact credits, written leads, one audit row per round', async () => {
    const a = await agency(1000);
    const ps = await people(30, () => true);
    const leads = await addLeads(a.t, fromPeople(ps));
    const preview = await a.rest('POST', a.run, {});
    expect(preview.status, preview.text).toBe(200);
    expect(preview.json).toMatchObject({ credits: 30, confirm_token: expect.stringMatching(/^ct_/) });
    expect(preview.json.preview).toMatchObject({ run: { status: 'previewed', processed: 0, total: 30 }, max_credits: 30, rounds: 2, round_size: 25, balance: 1000 });
    expect(await callsOf(a.t)).toHaveLength(0);
    const token = preview.json.confirm_token;

    const first = await a.rest('POST', a.run, { confirm_token: token });
    expect(first.status, first.text).toBe(200);
    expect(first.json.round.leads.map((l: any) => l.lead_id)).toEqual(leads.slice(0, 25).map((l) => l.id));
    expect(first.json.run).toMatchObject({ status: 'waiting_continue', processed: 25, total: 30 });
    // The second round through the tool: same key, same arguments, same token.
    const second = await a.tool('run_find_emails', { client_id: a.t.client.id, confirm_token: token });
    expect(second.isError, second.text).toBe(false);
    expect(second.json.run).toMatchObject({ status: 'done', processed: 30, total: 30 });

    const all = [...first.json.round.leads, ...second.json.round.leads];
    const expected = ps.map((p) => (p.truth.finder === null ? 'not_found' : p.truth.invalid ? 'invalid' : 'found'));
    expect(all.map((l: any) => l.outcome)).toEqual(expected);
    const found = expected.filter((o) => o === 'found').length;
    expect(found).toBeGreaterThan(5);
    expect(first.json.round.credits + second.json.round.credits).toBe(found);
    expect(second.json.run).toMatchObject({ found, credits: found });
    expect(await balanceOf(a.t)).toBe(1000 - found);

    const rows = await leadsOf(a.t);
    ps.forEach((p, i) => {
      const row = rows[i];
      const answer = all[i];
      if (answer.outcome === 'found') {
        expect(row).toMatchObject({ email: p.truth.email, emailStatus: p.truth.catchAll ? 'risky' : 'valid', status: 'new' });
        expect(answer).toMatchObject({ email: p.truth.email, provider: p.truth.finder });
        expect(row.provenance.email).toMatchObject({ source: `finder:${p.truth.finder}`, by: i < 25 ? 'key:assistant' : 'mcp:assistant' });
      } else {
        expect(row).toMatchObject({ email: null, status: 'waiting_for_email' });
        expect(answer.email).toBeNull();
      }
    });
    const audit = await auditOf(a.t);
    expect(audit.map((e) => e.actor).sort()).toEqual(['key:assistant', 'mcp:assistant']);
    expect(audit.reduce((n, e) => n + e.credits, 0)).toBe(found);
    // Every provider call is logged with its cost; the finds of providers that charge per search cost even misses.
    const calls = await callsOf(a.t);
    expect(calls.filter((c) => c.operation === 'verify')).toHaveLength(ps.filter((p) => p.truth.finder).length);
    expect(calls.every((c) => c.simulated && c.runId === preview.json.preview.run.id)).toBe(true);

    // The run is done: its token is used up.
    const after = await a.rest('POST', a.run, { confirm_token: token });
    expect(after.status).toBe(409);
    expect(after.json.error.code).toBe('confirm_token_used');
    expect(after.json.run).toMatchObject({ status: 'done' });
    await a.mcp.close();
  });

  it('never-mail at the waterfall: a blocked company domain is not searched, a blocked address found is not used or charged', async () => {
    const a = await agency(100);
    const [byDomain, byEmail, fine] = await people(3, usable);
    const leads = await addLeads(a.t, fromPeople([byDomain, byEmail, fine]));
    await env.services.db.insert(suppressions).values([
      { orgId: a.t.org.id, clientId: a.t.client.id, kind: 'domain', value: byDomain.domain, reason: 'manual', createdBy: 'test' },
      { orgId: a.t.org.id, clientId: a.t.client.id, kind: 'email', value: byEmail.truth.email!, reason: 'manual', createdBy: 'test' },
    ]);
    const preview = await a.rest('POST', a.run, {});
    const round = await a.rest('POST', a.run, { confirm_token: preview.json.confirm_token });
    expect(round.json.round.leads.map((l: any) => [l.lead_id, l.outcome, l.email])).toEqual([
      [leads[0].id, 'never_mail', null],
      [leads[1].id, 'never_mail', null],
      [leads[2].id, 'found', fine.truth.email],
    ]);
    expect(round.json.round.credits).toBe(1);
    expect(await balanceOf(a.t)).toBe(99);
    const calls = await callsOf(a.t);
    expect(calls.filter((c) => c.leadId === leads[0].id)).toHaveLength(0);
    // Found, recorded, not verified and not written.
    expect(calls.filter((c) => c.leadId === leads[1].id && c.outcome === 'found')).toHaveLength(1);
    expect((await leadsOf(a.t))[1]).toMatchObject({ email: null, status: 'waiting_for_email' });
    await a.mcp.close();
  });

  it('an address another lead of the pool already has is a duplicate: not written, not charged', async () => {
    const a = await agency(100);
    const [p] = await people(1, usable);
    await addLeads(a.t, [{ first: 'Other', last: 'Person', domain: 'x.example.com', email: p.truth.email, status: 'new' }]);
    const [lead] = await addLeads(a.t, fromPeople([p]));
    const preview = await a.rest('POST', a.run, { lead_ids: [lead.id] });
    const round = await a.rest('POST', a.run, { lead_ids: [lead.id], confirm_token: preview.json.confirm_token });
    expect(round.json.round).toEqual({ leads: [{ lead_id: lead.id, email: null, email_status: null, provider: p.truth.finder, outcome: 'duplicate' }], credits: 0 });
    expect(await balanceOf(a.t)).toBe(100);
    await a.mcp.close();
  });

  it('faults: fail- domains are errors left waiting, slow- domains rate-limit the first provider and the waterfall goes on', async () => {
    const a = await agency(100);
    const [failing] = await people(1, () => true, 'fail-');
    const [slowAlpha] = await people(1, (t) => t.finder === 'sim-alpha', 'slow-');
    const [slowGamma] = await people(1, (t) => t.finder === 'sim-gamma' && !t.invalid, 'slow-');
    const [ok] = await people(1, usable);
    const leads = await addLeads(a.t, fromPeople([failing, slowAlpha, slowGamma, ok]));
    const preview = await a.rest('POST', a.run, {});
    const round = await a.rest('POST', a.run, { confirm_token: preview.json.confirm_token });
    expect(round.status, round.text).toBe(200);
    expect(round.json.round.leads.map((l: any) => l.outcome)).toEqual(['error', 'rate_limited', 'found', 'found']);
    expect(round.json.round.leads[2].provider).toBe('sim-gamma');
    expect(round.json.round.retry_after_sec).toBe(30);
    expect(round.json.round.credits).toBe(2);
    const calls = await callsOf(a.t);
    expect(calls.filter((c) => c.leadId === leads[0].id).map((c) => c.outcome)).toEqual(['error', 'error', 'error']);
    expect(calls.find((c) => c.leadId === leads[1].id && c.provider === 'sim-alpha')!.outcome).toBe('rate_limited');
    const rows = await leadsOf(a.t);
    expect(rows[0]).toMatchObject({ email: null, status: 'waiting_for_email' });
    expect(rows[1]).toMatchObject({ email: null, status: 'waiting_for_email' });
    await a.mcp.close();
  });

  it('a round whose every lead fails fails the run and uses up its token', async () => {
    const a = await agency(100);
    await addLeads(a.t, fromPeople(await people(2, () => true, 'fail-')));
    const preview = await a.rest('POST', a.run, {});
    const round = await a.rest('POST', a.run, { confirm_token: preview.json.confirm_token });
    expect(round.json.run).toMatchObject({ status: 'failed', processed: 2, found: 0, credits: 0 });
    expect((await a.rest('POST', a.run, { confirm_token: preview.json.confirm_token })).json.error.code).toBe('confirm_token_used');
    await a.mcp.close();
  });

  it('the token is bound to the key, the tool and the arguments', async () => {
    const a = await agency(100);
    const [lead] = await addLeads(a.t, fromPeople(await people(1, usable)));
    const preview = await a.rest('POST', a.run, {});
    const token = preview.json.confirm_token;
    const otherKey = await a.t.addKey({ name: 'second', kind: 'agency', scopes: [] });
    const foreign = await a.t.call('POST', a.run, { key: otherKey, body: { confirm_token: token } });
    expect([foreign.status, foreign.json.error.code]).toEqual([400, 'confirm_token_invalid']);
    const otherArgs = await a.rest('POST', a.run, { lead_ids: [lead.id], confirm_token: token });
    expect(otherArgs.json.error.code).toBe('confirm_token_invalid');
    // Another tool's token is not a waterfall token, and this token confirms no other tool.
    const playbook = await a.rest('PUT', `/v1/agency/clients/${a.t.client.id}/playbook`, { instructions: 'Be brief.' });
    expect((await a.rest('POST', a.run, { confirm_token: playbook.json.confirm_token })).json.error.code).toBe('confirm_token_invalid');
    expect((await a.rest('PUT', `/v1/agency/clients/${a.t.client.id}/playbook`, { instructions: 'Be brief.', confirm_token: token })).json.error.code).toBe('confirm_token_invalid');
    expect(await callsOf(a.t)).toHaveLength(0);
    await a.mcp.close();
  });

  it('an unconfirmed preview lapses after 15 minutes; an open run after 24 hours', async () => {
    const a = await agency(100);
    await addLeads(a.t, fromPeople(await people(30, () => true)));
    const lapsed = await a.rest('POST', a.run, {});
    env.clock.advance(16 * 60_000);
    const late = await a.rest('POST', a.run, { confirm_token: lapsed.json.confirm_token });
    expect([late.status, late.json.error.code]).toEqual([410, 'confirm_token_expired']);

    const preview = await a.rest('POST', a.run, {});
    const token = preview.json.confirm_token;
    const first = await a.rest('POST', a.run, { confirm_token: token });
    expect(first.json.run.status).toBe('waiting_continue');
    // Past 15 minutes the open run still takes rounds with its token.
    env.clock.advance(60 * 60_000);
    const run = await env.services.db.select().from(finderRuns).where(eq(finderRuns.id, preview.json.preview.run.id));
    expect(run[0].expiresAt.getTime()).toBe(new Date(preview.json.preview.run.expires_at).getTime() - 15 * 60_000 + 24 * 3600_000);
    env.clock.advance(24 * 3600_000);
    const expired = await a.rest('POST', a.run, { confirm_token: token });
    expect([expired.status, expired.json.error.code]).toEqual([410, 'confirm_token_expired']);
    await a.mcp.close();
  });

  it("a round the balance cannot cover is 402 and writes nothing; the preview says so up front", async () => {
    const a = await agency(30);
    await addLeads(a.t, fromPeople(await people(30, () => true)));
    const preview = await a.rest('POST', a.run, {});
    expect(preview.json.confirm_token).toMatch(/^ct_/);
    await env.services.db.update(organizations).set({ credits: 24 }).where(eq(organizations.id, a.t.org.id));
    const refused = await a.rest('POST', a.run, { confirm_token: preview.json.confirm_token });
    expect(refused.status).toBe(402);
    expect(refused.json).toMatchObject({ error: { code: 'insufficient_credits' }, credits_needed: 25, balance: 24 });
    expect(await callsOf(a.t)).toHaveLength(0);
    expect(await auditOf(a.t)).toHaveLength(0);
    const [run] = await env.services.db.select().from(finderRuns).where(eq(finderRuns.id, preview.json.preview.run.id));
    expect(run).toMatchObject({ status: 'previewed', processed: 0 });
    expect(await balanceOf(a.t)).toBe(24);
    // Asked again with too few credits, the preview cannot be confirmed.
    const blocked = await a.tool('run_find_emails', { client_id: a.t.client.id });
    expect(blocked.json).toMatchObject({ confirm_token: null, blocked_by: 'insufficient_credits', credits: 30 });
    await a.mcp.close();
  });

  it('a preview whose leads changed before the first round is preview_stale with a fresh token', async () => {
    const a = await agency(100);
    const leads = await addLeads(a.t, fromPeople(await people(2, () => true)));
    const preview = await a.rest('POST', a.run, {});
    await env.services.db.update(poolLeads).set({ email: 'typed@by.hand.example.com', status: 'new' }).where(eq(poolLeads.id, leads[0].id));
    const stale = await a.rest('POST', a.run, { confirm_token: preview.json.confirm_token });
    expect([stale.status, stale.json.error.code]).toEqual([409, 'preview_stale']);
    expect(stale.json.preview.run.total).toBe(1);
    const round = await a.rest('POST', a.run, { confirm_token: stale.json.confirm_token });
    expect(round.json.round.leads.map((l: any) => l.lead_id)).toEqual([leads[1].id]);
    await a.mcp.close();
  });

  it('nothing to search: the preview cannot be confirmed', async () => {
    const a = await agency(100);
    const r = await a.rest('POST', a.run, {});
    expect(r.json).toMatchObject({ confirm_token: null, blocked_by: 'conflict', credits: 0, preview: { run: null, max_credits: 0 } });
    await a.mcp.close();
  });
});

describe('GET /admin/v1/orgs/{org_id}/sim/{table}', () => {
  it('shows the simulated finder calls; every simulated port table answers; unknown tables are refused', async () => {
    const a = await agency(100);
    await addLeads(a.t, fromPeople(await people(2, usable)));
    const preview = await a.rest('POST', a.run, {});
    await a.rest('POST', a.run, { confirm_token: preview.json.confirm_token });
    const r = await a.t.admin('GET', `/admin/v1/orgs/${a.t.org.id}/sim/finder_calls`);
    expect(r.status, r.text).toBe(200);
    expect(r.json.rows.length).toBe((await callsOf(a.t)).length);
    expect(r.json.rows[0]).toMatchObject({ client_id: a.t.client.id, run_id: preview.json.preview.run.id, simulated: true, cost_micros: expect.any(Number) });
    expect((await a.t.admin('GET', `/admin/v1/orgs/${a.t.org.id}/sim/table_posts`)).json).toEqual({ rows: [] });
    // No port is left for a later issue: every table of a simulated port answers 200 (nothing sequenced yet here).
    for (const table of ['orders', 'dns_records', 'mailboxes', 'sequencer_sends', 'table_posts', 'enrichment_calls']) {
      const r = await a.t.admin('GET', `/admin/v1/orgs/${a.t.org.id}/sim/${table}`);
      expect(r.status, `${table}: ${r.text}`).toBe(200);
    }
    expect((await a.t.admin('GET', `/admin/v1/orgs/${a.t.org.id}/sim/sequencer_sends`)).json).toEqual({ rows: [] });
    expect((await a.t.admin('GET', `/admin/v1/orgs/${a.t.org.id}/sim/nope`)).status).toBe(400);
    expect((await a.t.admin('GET', `/admin/v1/orgs/00000000-0000-4000-8000-000000000000/sim/finder_calls`)).status).toBe(404);
    await a.mcp.close();
  });
});
