// The waterfall under real concurrency (Neon driver, a pool of connections, real PostgreSQL): rounds of one run
// fired at once get disjoint leads (the run row's lock moves the cursor), so no lead is searched twice and none is
// charged twice; and two runs over the same leads opened at once cannot both search them (activation is serialised
// per client and the second sees the first's leads taken: preview_stale).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simTruth } from '../../lib/ports/finder/sim';
import { creditLedger, finderCalls, organizations, poolLeads } from '../../schema';
import { startTestEnv, TIER, type TestEnv } from '../helpers/harness';
import { newTenant, randomIp } from '../helpers/tenant';

let env: TestEnv;
beforeAll(async () => {
  if (TIER !== 'integration') return;
  env = await startTestEnv();
});
afterAll(async () => {
  await env?.close();
});

async function tenantWithLeads(n: number) {
  const t = await newTenant(env, { features: { agency_tools: true, studio: true } });
  const key = await t.addKey({ name: 'assistant', kind: 'agency', scopes: [], rate_limit_per_minute: 1000 });
  const values = Array.from({ length: n }, (_, i) => ({
    orgId: t.org.id,
    clientId: t.client.id,
    firstName: `Lu${i}`,
    lastName: `Ng${i}`,
    domain: `firm${i}.example.com`,
    status: 'waiting_for_email' as const,
    personKey: `lu${i} ng${i}|firm${i}.example.com`,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
  }));
  const leads = await env.services.db.insert(poolLeads).values(values).returning();
  const expectedFound = (
    await Promise.all(values.map((v) => simTruth(env.config.SIM_SEED, { first_name: v.firstName, last_name: v.lastName, full_name: null, domain: v.domain })))
  ).filter((t) => t.finder && !t.invalid).length;
  return { t, key, leads, expectedFound, path: `/v1/agency/clients/${t.client.id}/waterfall/run` };
}

describe.skipIf(TIER !== 'integration')('the waterfall under concurrency (real PostgreSQL)', () => {
  it('6 concurrent rounds of one token over 100 leads: every lead searched once, charged at most once, credits exact', async () => {
    const { t, key, leads, expectedFound, path } = await tenantWithLeads(100);
    const preview = await t.call('POST', path, { key, body: {} });
    const token = preview.json.confirm_token;
    const rounds = await Promise.all(Array.from({ length: 6 }, () => t.call('POST', path, { key, body: { confirm_token: token }, ip: randomIp() })));
    // A round that arrives once every lead is handed out gets an empty round, or 409 once a round closed the run.
    for (const r of rounds) expect(r.status === 200 || r.json.error.code === 'confirm_token_used', r.text).toBe(true);
    const ran = rounds.filter((r) => r.status === 200);
    const handed = ran.flatMap((r) => r.json.round.leads.map((l: any) => l.lead_id));
    // 100 leads in rounds of 25: four rounds got leads, and no lead went to two rounds.
    expect(handed.sort()).toEqual(leads.map((l) => l.id).sort());
    expect(ran.filter((r) => r.json.round.leads.length > 0)).toHaveLength(4);

    const db = env.services.db;
    const finds = (await db.select().from(finderCalls).where(eq(finderCalls.orgId, t.org.id))).filter((c) => c.operation === 'find' && c.outcome === 'found');
    expect(new Set(finds.map((c) => c.leadId)).size).toBe(finds.length);
    const charges = (await db.select().from(creditLedger).where(eq(creditLedger.orgId, t.org.id))).filter((c) => c.reference.startsWith('finder:'));
    expect(new Set(charges.map((c) => c.reference)).size).toBe(charges.length);
    expect(charges).toHaveLength(expectedFound);
    const [org] = await db.select().from(organizations).where(eq(organizations.id, t.org.id));
    expect(org.credits).toBe(1000 - expectedFound);
    const written = (await db.select().from(poolLeads).where(eq(poolLeads.orgId, t.org.id))).filter((l) => l.email !== null);
    expect(written).toHaveLength(expectedFound);
    expect(ran.reduce((n, r) => n + r.json.round.credits, 0)).toBe(expectedFound);
  });

  it('two runs over the same leads confirmed at once: one searches them, the other is preview_stale', async () => {
    const { t, key, path } = await tenantWithLeads(10);
    const a = await t.call('POST', path, { key, body: {} });
    const b = await t.call('POST', path, { key, body: {} });
    const [ra, rb] = await Promise.all([
      t.call('POST', path, { key, body: { confirm_token: a.json.confirm_token }, ip: randomIp() }),
      t.call('POST', path, { key, body: { confirm_token: b.json.confirm_token }, ip: randomIp() }),
    ]);
    const codes = [ra, rb].map((r) => (r.status === 200 ? 'ran' : r.json.error.code)).sort();
    expect(codes).toEqual(['preview_stale', 'ran']);
    const finds = (await env.services.db.select().from(finderCalls).where(eq(finderCalls.orgId, t.org.id))).filter((c) => c.operation === 'find');
    const perLead = new Map<string, number>();
    for (const c of finds.filter((c) => c.provider === 'sim-alpha')) perLead.set(c.leadId!, (perLead.get(c.leadId!) ?? 0) + 1);
    expect([...perLead.values()].every((n) => n === 1)).toBe(true);
    expect(perLead.size).toBe(10);
  });
});
