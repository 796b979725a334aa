// Issue 17 end to end on simulated days, through the agency REST routes of a CLOCK=sim service (both tiers; the
// integration tier on a database of its own, because the clock's advance runs every due job and tick it finds):
// a client from the domain rule and domain choice to active mailboxes over a month of simulated days. Nothing is
// bought before the plan is approved; each domain is bought once. Mailboxes warm 14 days, ramp at 10 and 20 a day
// and become active at the rule's cap; a reserve waits unattached. The `fail-` domain's mailboxes bounce 5 % (the
// simulation of agency-operator.md §6): auto-protect parks them, swaps the reserve in for the first and, with no
// reserve left, proposes a purchase that waits for approval. Unpark is refused while the 7-day bounce rate is at or
// above 2 % and allowed after a parked week, restarting at 5 a day.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../functions/jobs/handlers';
import { failsInWeek2 } from '../../lib/ports/warmup/sim';
import { createNodeServices, type NodeServices } from '../../lib/runtime/node';
import { createNodeApp } from '../../scripts/node_server';
import { domains, mailboxes, planSteps, plans, simDnsRecords, simOrders } from '../../schema';
import { ADMIN_TOKEN, startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant, randomIp, request } from '../helpers/tenant';
import { freeDomain, freshStem } from './domains_helpers';

let wall: TestEnv;
let sim: TestEnv;
let simServices: NodeServices;

beforeAll(async () => {
  wall = await startTestEnv({ CLOCK: 'sim' }, { ownDatabase: true });
  simServices = await createNodeServices(wall.config, { database: wall.services.database });
  sim = { ...wall, services: simServices, app: createNodeApp(simServices) };
}, 120_000);
afterAll(() => wall.close());

const ip = randomIp();
const DAY = 86_400;

async function advanceDays(days: number) {
  const r = await request(sim, 'POST', '/admin/v1/sim/clock', { key: null, body: { advance_seconds: days * DAY }, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, ip });
  expect(r.status, r.text).toBe(200);
  return r.json as { now: string; ran: { what: string; kind: string; id: string; outcome: string }[] };
}

describe('a client from domain choice to active mailboxes over simulated days', () => {
  it('buys only after approval, once per step; warms, ramps and activates; parks failing mailboxes, swaps a reserve, proposes a buy; unpark refused then allowed', { timeout: 240_000 }, async () => {
    const t = await newTenant(sim, { features: { agency_tools: true, studio: true } });
    const key = await t.addKey({ name: 'assistant', kind: 'agency', scopes: ['agency.plans.approve'] });
    const call = (method: string, path: string, body?: unknown) => request(sim, method, path, { key, body, ip });
    const base = `/v1/agency/clients/${t.client.id}`;
    const twoStep = async (method: string, path: string, body: Record<string, unknown>) => {
      const preview = await call(method, path, body);
      expect(preview.status, preview.text).toBe(200);
      expect(preview.json.confirm_token, preview.text).toEqual(expect.any(String));
      const done = await call(method, path, { ...body, confirm_token: preview.json.confirm_token });
      expect(done.status, done.text).toBe(200);
      return done.json;
    };
    const db = simServices.db;
    const orders = () => db.select().from(simOrders).where(eq(simOrders.orgId, t.org.id));
    const lifecycle = async () => {
      const r = await call('GET', `${base}/mailbox-lifecycle?limit=200`);
      expect(r.status, r.text).toBe(200);
      return r.json as { mailboxes: any[]; counts: Record<string, number>; auto_protect: boolean };
    };

    // The rule, the workspace, the options; then two domains chosen into the plan: a clean one and a `fail-` one.
    const stem = freshStem();
    const rule = await twoStep('PUT', `${base}/domain-rule`, { stems: [stem], mailboxes_per_domain: 3, daily_cap: 40, redirect_to: 'https://client.example/' });
    expect(rule.domain_rule).toMatchObject({ stems: [stem], daily_cap: 40 });
    const ws = (await call('GET', `${base}/domain-workspaces`)).json.workspaces[0];
    expect((await call('PUT', `${base}/domain-workspace`, { workspace_id: ws.id })).status).toBe(200);
    const options = await call('GET', `${base}/domain-options?stems=${stem}&limit=3`);
    expect(options.status, options.text).toBe(200);
    expect(options.json.options.length).toBeGreaterThan(0);
    const clean = options.json.options[0].domain as string;
    const failing = await freeDomain(sim, 1500, 'fail-');
    await twoStep('POST', `${base}/domains/choose`, { domains: [clean], mailboxes_per_domain: 3 });
    const chosen = await twoStep('POST', `${base}/domains/choose`, { domains: [failing], mailboxes_per_domain: 2 });
    const planId = chosen.plan.id as string;
    expect(chosen.plan.steps.map((s: any) => [s.kind, s.day, s.status])).toEqual([
      ['buy_domain', 0, 'waiting'],
      ['setup_dns', 1, 'waiting'],
      ['create_mailboxes', 2, 'waiting'],
      ['buy_domain', 0, 'waiting'],
      ['setup_dns', 1, 'waiting'],
      ['create_mailboxes', 2, 'waiting'],
    ]);

    // Days pass without approval: nothing is bought.
    await advanceDays(3);
    expect(await orders()).toHaveLength(0);
    expect(await db.select().from(domains).where(eq(domains.orgId, t.org.id))).toHaveLength(0);

    // Approved by the key that may approve plans; three days later both domains are bought once, DNS is set, mailboxes warm.
    await twoStep('POST', `/v1/agency/plans/${planId}/approve`, {});
    await advanceDays(3);
    const bought = await orders();
    expect(bought.map((o) => o.domain).sort()).toEqual([clean, failing].sort());
    const owned = await db.select().from(domains).where(eq(domains.orgId, t.org.id));
    expect(owned.map((d) => [d.name, d.status]).sort()).toEqual([[clean, 'dns_ready'], [failing, 'dns_ready']].sort());
    const records = await db.select().from(simDnsRecords).where(eq(simDnsRecords.orgId, t.org.id));
    for (const name of [clean, failing]) {
      const types = records.filter((r) => r.domain === name).map((r) => r.type);
      expect(types, name).toEqual(expect.arrayContaining(['TXT', 'MX', 'REDIRECT']));
    }
    const rows = await db.select().from(mailboxes).where(eq(mailboxes.orgId, t.org.id));
    expect(rows).toHaveLength(5);
    for (const m of rows) expect(m.credentialEnc, m.address).toEqual(expect.any(String));
    let life = await lifecycle();
    expect(life.counts).toMatchObject({ warming: 5, ramping: 0, active: 0, reserve: 0, parked: 0 });
    expect(life.auto_protect).toBe(true);

    // Two clean mailboxes and both fail- mailboxes join the client's campaign; the third clean one stays unattached.
    const onClean = life.mailboxes.filter((m) => m.domain === clean).sort((a, b) => a.address.localeCompare(b.address));
    const onFail = life.mailboxes.filter((m) => m.domain === failing);
    const reserve = onClean[2];
    const attach = await call('POST', `${base}/mailboxes/attach`, { mailbox_ids: [onClean[0].id, onClean[1].id, ...onFail.map((m) => m.id)], campaign_ids: [t.campaign.id] });
    expect(attach.status, attach.text).toBe(200);

    // Two weeks on: warm. The fail- mailboxes start ramping and are parked at once (5 % bounces); the first gets the reserve.
    await advanceDays(14);
    life = await lifecycle();
    const byId = new Map(life.mailboxes.map((m) => [m.id, m]));
    for (const m of onFail) expect(byId.get(m.id), m.address).toMatchObject({ status: 'parked', cap: 0, parked: { reason: 'bounce_rate' } });
    const swapped = byId.get(reserve.id)!;
    expect(swapped).toMatchObject({ status: 'ramping', campaign_ids: [t.campaign.id] });
    expect(onFail.map((m) => m.id)).toContain(swapped.replaced_mailbox_id);
    for (const m of onClean.slice(0, 2)) expect(byId.get(m.id)).toMatchObject({ status: 'ramping', cap: 10 });

    // The second parked mailbox had no reserve: a purchase was proposed by the system and waits; nothing more was bought.
    const open = await db.select().from(plans).where(and(eq(plans.orgId, t.org.id), eq(plans.status, 'waiting_approval')));
    expect(open).toHaveLength(1);
    const proposed = await db.select().from(planSteps).where(eq(planSteps.planId, open[0].id));
    expect(proposed.length).toBeGreaterThan(0);
    for (const s of proposed) expect(s).toMatchObject({ status: 'waiting', createdBy: 'system' });
    expect(proposed.some((s) => s.buys)).toBe(true);
    expect(await orders()).toHaveLength(2);

    // The swap moved the first parked mailbox's campaigns to the reserve; the other parked one keeps its campaign.
    const replaced = onFail.find((m) => m.id === swapped.replaced_mailbox_id)!;
    const kept = onFail.find((m) => m.id !== swapped.replaced_mailbox_id)!;
    expect(byId.get(replaced.id)!.campaign_ids).toEqual([]);
    expect(byId.get(kept.id)!.campaign_ids).toEqual([t.campaign.id]);

    // Unpark right after parking: refused, the 7-day bounce rate is ≥ 2 %.
    const refused = await call('POST', `${base}/mailboxes/unpark`, { mailbox_id: kept.id });
    expect(refused.status, refused.text).toBe(200);
    expect(refused.json).toMatchObject({ confirm_token: null, blocked_by: 'unpark_refused', preview: { allowed: false } });
    expect(refused.json.preview.bounce_rate_7d).toBeGreaterThanOrEqual(0.02);

    // Two more weeks: the clean mailboxes are active at the rule's cap (unless the simulation fails them in their
    // second week of sending, ~5 % by address: then auto-protect parked them too); a parked mailbox sent nothing.
    await advanceDays(16);
    life = await lifecycle();
    const now = new Map(life.mailboxes.map((m) => [m.id, m]));
    for (const m of onClean.slice(0, 2)) {
      const expected = (await failsInWeek2(sim.config.SIM_SEED, m.address)) ? { status: 'parked' } : { status: 'active', cap: 40 };
      expect(now.get(m.id), m.address).toMatchObject(expected);
    }
    expect(await orders()).toHaveLength(2);

    // After a parked week unpark is allowed: the attached one restarts ramping at 5 a day, the one without a campaign
    // would come back as a reserve. The fail- domain bounces again, so the unparked one is parked again.
    const asReserve = await call('POST', `${base}/mailboxes/unpark`, { mailbox_id: replaced.id });
    expect(asReserve.json, asReserve.text).toMatchObject({ confirm_token: expect.any(String), preview: { allowed: true, next_status: 'reserve' } });
    const allowed = await call('POST', `${base}/mailboxes/unpark`, { mailbox_id: kept.id });
    expect(allowed.json, allowed.text).toMatchObject({ confirm_token: expect.any(String), preview: { allowed: true, next_status: 'ramping', restarts_at: 5, bounce_rate_7d: 0 } });
    const unparked = await call('POST', `${base}/mailboxes/unpark`, { mailbox_id: kept.id, confirm_token: allowed.json.confirm_token });
    expect(unparked.status, unparked.text).toBe(200);
    expect((await lifecycle()).mailboxes.find((m) => m.id === kept.id)).toMatchObject({ status: 'ramping', cap: 5, day: 1 });
    await advanceDays(2);
    expect((await lifecycle()).mailboxes.find((m) => m.id === kept.id)).toMatchObject({ status: 'parked', parked: { reason: 'bounce_rate' } });

    // The snapshot answers with its age (refreshed every 10 minutes of simulated time) and the same counts.
    const infra = await call('GET', `${base}/infrastructure`);
    expect(infra.status, infra.text).toBe(200);
    expect(infra.json.snapshot.age_seconds).toBeLessThan(600);
    expect(infra.json.infrastructure.mailboxes).toEqual((await lifecycle()).counts);
  });
});
