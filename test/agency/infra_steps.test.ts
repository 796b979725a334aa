// The infrastructure step kinds (buy_domain, setup_dns, create_mailboxes) on days of the test clock: choose_domains
// into a plan, approve it, and each step on its day buys the domain (one sim order, the step id as reference), writes
// its DNS records and redirect, and creates warming mailboxes with encrypted credentials. Nothing runs unapproved;
// a buy step run 5 times at once, after a crash before and after its domain row, still makes exactly one order and
// one domain row; a name sold meanwhile fails the step after its attempts; the dry runs name what is missing.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPF_GOOGLE } from '../../lib/infra/dns_plan';
import { executeStep, MAX_STEP_ATTEMPTS, stepRow } from '../../lib/plans/execute';
import { createMailboxesStep } from '../../lib/plans/steps/create_mailboxes';
import { setupDnsStep } from '../../lib/plans/steps/setup_dns';
import type { StepContext } from '../../lib/plans/step_kind';
import { dayIn } from '../../lib/pool/day';
import { domains, mailboxes, organizations, planSteps, simDnsRecords, simMailboxes, simOrders } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { advanceTo, planTenant, type PlanTenant } from '../plans/plans_helpers';
import { freeDomain, ordersOf, twoStep } from './domains_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const db = () => env.services.db;

async function withWorkspace(a: PlanTenant) {
  const ws = (await a.rest('GET', `${a.base}/domain-workspaces`)).json.workspaces[0];
  const set = await a.rest('PUT', `${a.base}/domain-workspace`, { workspace_id: ws.id });
  expect(set.status, set.text).toBe(200);
  return ws as { id: string; name: string };
}

/** choose_domains (both calls) for the names; answers the plan and its added steps. */
async function choose(a: PlanTenant, names: string[], perDomain = 2) {
  const { done } = await twoStep(a, 'POST', `${a.base}/domains/choose`, { domains: names, mailboxes_per_domain: perDomain });
  expect(done.status, done.text).toBe(200);
  return done.json as { plan: any; steps: any[] };
}

async function approve(a: PlanTenant, planId: string) {
  const { done } = await twoStep(a, 'POST', `/v1/agency/plans/${planId}/approve`, {});
  expect(done.status, done.text).toBe(200);
  return done.json.plan;
}

const domainRows = (orgId: string) => db().select().from(domains).where(eq(domains.orgId, orgId));
const mailboxRows = (orgId: string) => db().select().from(mailboxes).where(eq(mailboxes.orgId, orgId));

/** Moves the clock to the step's due time without running the queue, so the test runs the step itself. */
async function dueNow(stepId: string) {
  const s = await stepRow(db(), stepId);
  const ms = s.dueAt!.getTime() - env.clock.now().getTime();
  if (ms > 0) env.clock.advance(ms);
}

const ctxOf = (a: PlanTenant, step: { id: string }, planId: string): StepContext => ({
  services: env.services,
  orgId: a.t.org.id,
  clientId: a.t.client.id,
  stepId: step.id,
  planId,
  now: env.clock.now(),
  actor: 'system',
});

describe('from choose_domains to warming mailboxes', () => {
  it('buys on day 0, sets up DNS on day 1, creates mailboxes on day 2, each once, in the organization timezone', async () => {
    const a = await planTenant(env);
    await db().update(organizations).set({ timezone: 'Pacific/Auckland' }).where(eq(organizations.id, a.t.org.id));
    const ws = await withWorkspace(a);
    const rule = await twoStep(a, 'PUT', `${a.base}/domain-rule`, { redirect_to: 'https://client-a.example', sender_names: ['Anna Berg', 'Tom Weber'] });
    expect(rule.done.status, rule.done.text).toBe(200);
    const name = await freeDomain(env);
    const { plan, steps } = await choose(a, [name], 3);
    expect(steps.map((s) => s.kind)).toEqual(['buy_domain', 'setup_dns', 'create_mailboxes']);

    // Proposed, not approved: a due run changes nothing.
    expect(await executeStep(env.services, steps[0].id)).toBe('skipped');
    expect(await ordersOf(env, a.t.org.id)).toHaveLength(0);

    const approved = await approve(a, plan.id);
    expect(approved.steps.map((s: any) => s.status)).toEqual(['scheduled', 'scheduled', 'scheduled']);

    // Day 0: the purchase.
    await advanceTo(env, approved.steps[0].due_at);
    const buy = await stepRow(db(), steps[0].id);
    expect(buy.status, buy.error ?? '').toBe('done');
    const orders = await ordersOf(env, a.t.org.id);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ reference: steps[0].id, domain: name });
    let [d] = await domainRows(a.t.org.id);
    expect(d).toMatchObject({ name, clientId: a.t.client.id, status: 'bought', orderRef: steps[0].id, registrarOrderId: orders[0].id, priceCents: orders[0].priceCents });
    expect(d.boughtAt).toBeInstanceOf(Date);
    expect(buy.result).toMatchObject({ domain: name, order_id: orders[0].id, price_cents: orders[0].priceCents, simulated: true });
    expect((await stepRow(db(), steps[1].id)).status).toBe('scheduled');

    // Day 1: DNS records and the redirect.
    await advanceTo(env, approved.steps[1].due_at);
    const dns = await stepRow(db(), steps[1].id);
    expect(dns.status, dns.error ?? '').toBe('done');
    const records = await db().select().from(simDnsRecords).where(and(eq(simDnsRecords.orgId, a.t.org.id), eq(simDnsRecords.domain, name)));
    const byKey = new Map(records.map((r) => [`${r.type} ${r.name}`, r.content]));
    expect(byKey.get(`TXT ${name}`)).toBe(SPF_GOOGLE);
    expect(byKey.get(`TXT _dmarc.${name}`)).toBe(`v=DMARC1; p=none; rua=mailto:dmarc@${name}`);
    expect(byKey.get(`TXT google._domainkey.${name}`)).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/=]{40,}$/);
    expect(byKey.get(`MX ${name}`)).toContain('google.com');
    expect(byKey.get(`REDIRECT ${name}`)).toBe('https://client-a.example');
    [d] = await domainRows(a.t.org.id);
    expect(d).toMatchObject({ status: 'dns_ready', redirectTo: 'https://client-a.example' });
    expect(d.dnsReadyAt).toBeInstanceOf(Date);

    // Day 2: the mailboxes, warming from the organization's day, credentials encrypted.
    await advanceTo(env, approved.steps[2].due_at);
    const mbx = await stepRow(db(), steps[2].id);
    expect(mbx.status, mbx.error ?? '').toBe('done');
    const rows = await mailboxRows(a.t.org.id);
    expect(rows.map((r) => r.address).sort()).toEqual([`anna@${name}`, `tom@${name}`, `anna.berg@${name}`].sort());
    const today = dayIn('Pacific/Auckland', mbx.ranAt!);
    for (const r of rows) {
      expect(r).toMatchObject({ clientId: a.t.client.id, domainId: d.id, workspaceId: ws.id, createdByStep: steps[2].id, status: 'warming', statusSince: today, rampStartCap: 10, dailyCap: 0 });
      expect(r.providerId).toEqual(expect.any(String));
      expect(r.credentialEnc).toEqual(expect.any(String));
      const plain = await env.services.secrets.decrypt(r.credentialEnc!);
      expect(plain.length).toBeGreaterThanOrEqual(12);
      expect(r.credentialEnc).not.toContain(plain);
    }
    expect(rows.find((r) => r.address === `anna@${name}`)!.displayName).toBe('Anna Berg');
    expect(await db().select().from(simMailboxes).where(eq(simMailboxes.orgId, a.t.org.id))).toHaveLength(3);
    const final = await a.getPlan(plan.id);
    expect(final.status).toBe('done');

    // Running the DNS and mailbox steps again changes nothing: no second record, row or provider mailbox.
    const ctx = ctxOf(a, steps[2], plan.id);
    const again = await createMailboxesStep.run(ctx, { domain: name, count: 3 });
    expect(again).toMatchObject({ mailboxes: rows.map((r) => r.address).sort(), created_now: 0 });
    await setupDnsStep.run(ctxOf(a, steps[1], plan.id), { domain: name });
    expect(await mailboxRows(a.t.org.id)).toHaveLength(3);
    expect(await db().select().from(simMailboxes).where(eq(simMailboxes.orgId, a.t.org.id))).toHaveLength(3);
    expect(await db().select().from(simDnsRecords).where(eq(simDnsRecords.orgId, a.t.org.id))).toHaveLength(records.length);
    expect(await ordersOf(env, a.t.org.id)).toHaveLength(1);
  });
});

describe('one order per step', () => {
  it('5 concurrent runs of one buy step, then a crash after the effect (an expired running lease): 1 order, 1 domain row', async () => {
    const a = await planTenant(env);
    await withWorkspace(a);
    const name = await freeDomain(env);
    const { plan, steps } = await choose(a, [name]);
    await approve(a, plan.id);
    await dueNow(steps[0].id);
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => executeStep(env.services, steps[0].id)));
    expect(outcomes.filter((o) => o === 'ran')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'skipped')).toHaveLength(4);
    expect(await ordersOf(env, a.t.org.id)).toHaveLength(1);
    expect(await domainRows(a.t.org.id)).toHaveLength(1);
    const first = await stepRow(db(), steps[0].id);

    // A process that died after buying but before marking the step done: taken over when its lease ran out.
    await db()
      .update(planSteps)
      .set({ status: 'running', leaseUntil: new Date(env.clock.now().getTime() - 1000) })
      .where(eq(planSteps.id, steps[0].id));
    expect(await executeStep(env.services, steps[0].id)).toBe('ran');
    const second = await stepRow(db(), steps[0].id);
    expect(second.status).toBe('done');
    expect(second.result).toEqual(first.result);
    expect(await ordersOf(env, a.t.org.id)).toHaveLength(1);
    expect(await domainRows(a.t.org.id)).toHaveLength(1);
    expect(await db().select().from(simOrders).where(eq(simOrders.domain, name))).toHaveLength(1);
  });

  it('a crash between the order and the domain row: the rerun finds the order (repeated) and writes the row once', async () => {
    const a = await planTenant(env);
    await withWorkspace(a);
    const name = await freeDomain(env);
    const { plan, steps } = await choose(a, [name]);
    await approve(a, plan.id);
    await dueNow(steps[0].id);
    // The first run's registrar call went through; the process died before anything else.
    const order = await env.services.studio.registrar.buy({ db: db() }, { orgId: a.t.org.id, domain: name, reference: steps[0].id, maxPriceCents: 1500 });
    expect(order.ok).toBe(true);
    await db().update(planSteps).set({ status: 'running', attempts: 1, leaseUntil: new Date(env.clock.now().getTime() - 1000) }).where(eq(planSteps.id, steps[0].id));
    expect(await executeStep(env.services, steps[0].id)).toBe('ran');
    expect(await ordersOf(env, a.t.org.id)).toHaveLength(1);
    const rows = await domainRows(a.t.org.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].registrarOrderId).toBe(order.ok ? order.order_id : null);
  });

  it('a name sold meanwhile: the step is retried and fails after its attempts, naming the reason; nothing is bought', async () => {
    const a = await planTenant(env);
    const b = await planTenant(env);
    await withWorkspace(a);
    const name = await freeDomain(env);
    const { plan, steps } = await choose(a, [name]);
    await approve(a, plan.id);
    // Another organization buys it first.
    const other = await env.services.studio.registrar.buy({ db: db() }, { orgId: b.t.org.id, domain: name, reference: 'elsewhere', maxPriceCents: 1500 });
    expect(other.ok).toBe(true);
    for (let i = 0; i < MAX_STEP_ATTEMPTS; i++) {
      await dueNow(steps[0].id);
      expect(await executeStep(env.services, steps[0].id)).toBe('failed');
    }
    const s = await stepRow(db(), steps[0].id);
    expect(s.status).toBe('failed');
    expect(s.error).toContain(name);
    expect(s.error).toContain('no longer available');
    expect(await ordersOf(env, a.t.org.id)).toHaveLength(0);
    expect(await domainRows(a.t.org.id)).toHaveLength(0);
  });
});

describe('the step kinds refuse what is not ready', () => {
  it('setup_dns before the purchase throws "not bought yet"; create_mailboxes before DNS throws too', async () => {
    const a = await planTenant(env);
    await withWorkspace(a);
    const name = await freeDomain(env);
    const { plan, steps } = await choose(a, [name]);
    await expect(setupDnsStep.run(ctxOf(a, steps[1], plan.id), { domain: name })).rejects.toThrow(/not a domain of this client/);
    await db().insert(domains).values({ orgId: a.t.org.id, clientId: a.t.client.id, name, status: 'ordered', priceCents: 1000, orderRef: steps[0].id });
    await expect(setupDnsStep.run(ctxOf(a, steps[1], plan.id), { domain: name })).rejects.toThrow(/not bought yet/);
    await expect(createMailboxesStep.run(ctxOf(a, steps[2], plan.id), { domain: name, count: 1 })).rejects.toThrow(/DNS is not set up yet/);
    expect(await db().select().from(simDnsRecords).where(eq(simDnsRecords.orgId, a.t.org.id))).toHaveLength(0);
    expect(await mailboxRows(a.t.org.id)).toHaveLength(0);
  });

  it("dry runs: no workspace; a domain neither the client's nor bought earlier in the plan; another client's domain", async () => {
    const a = await planTenant(env);
    const name = await freeDomain(env);
    const lone = await freeDomain(env);
    const propose = await a.rest('POST', `${a.base}/plan/steps`, { kind: 'create_mailboxes', params: { domain: lone, count: 2 }, day: 2 });
    expect(propose.status, propose.text).toBe(201);
    expect(propose.json.plan.dry_run.problems).toEqual([
      `Step 1 (create_mailboxes): No domain workspace for ${lone}'s mailboxes: choose a domain workspace first (set_domain_workspace).`,
      `Step 1 (create_mailboxes): ${lone} is not a domain of this client and no earlier step of this plan buys it (add it with choose_domains).`,
    ]);
    await withWorkspace(a);
    const other = await a.t.addClient('Client B');
    await db().insert(domains).values({ orgId: a.t.org.id, clientId: other.id, name, status: 'dns_ready', priceCents: 1000, orderRef: 'other-step' });
    const dns = await a.rest('POST', `${a.base}/plan/steps`, { kind: 'setup_dns', params: { domain: name }, day: 1 });
    expect(dns.json.plan.dry_run.problems).toContain(`Step 2 (setup_dns): ${name} belongs to another client of the organization.`);
    const buy = await a.rest('POST', `${a.base}/plan/steps`, { kind: 'buy_domain', params: { domain: name, max_price_cents: 1500 } });
    expect(buy.json.plan.dry_run.problems).toContain(`Step 3 (buy_domain): ${name} is already bought by another client of the organization.`);
    const bad = await a.rest('POST', `${a.base}/plan/steps`, { kind: 'buy_domain', params: { domain: 'nope', max_price_cents: 1500 } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toContain('params.domain');
  });
});
