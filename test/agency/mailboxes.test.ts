// The mailbox lifecycle on simulated days (the daily tick called with explicit days, counted back from the test
// clock's today) and its four tools on both faces: warming → ramping / reserve, the ramp caps, active at the rule's
// cap, auto-protect parking and swapping, a proposed (never bought) reserve, auto-protect off, unpark refused and
// allowed, attach, idempotent days, tenant isolation and validation.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../lib/infra/mailbox_health';
import { planSteps, plans, simMailboxes, simOrders } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { planTenant } from '../plans/plans_helpers';
import {
  addDomain,
  addMailboxes,
  campaignsOf,
  clearOverride,
  daysAgo,
  healthRows,
  mailboxAudit,
  mailboxRow,
  overrideHealth,
  setRule,
  tickDay,
  tickDays,
  todayOf,
} from './infra_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const lifecycle = async (a: Awaited<ReturnType<typeof planTenant>>, query = '') => {
  const r = await a.rest('GET', `${a.base}/mailbox-lifecycle${query}`);
  expect(r.status, r.text).toBe(200);
  return r.json;
};

describe('the daily mailbox tick', () => {
  it('warms 14 days, then ramps an attached mailbox (10 a day, 20 from day 8, then active at the rule cap) and makes an unattached one a reserve', async () => {
    const a = await planTenant(env);
    const { org, client, campaign } = a.t;
    await setRule(env, org.id, client.id, { dailyCap: 40 });
    const d = await addDomain(env, org.id, client.id);
    const start = daysAgo(env, 40);
    const [attached] = await addMailboxes(env, d, 1, { since: start, campaignId: campaign.id });
    const [spare] = await addMailboxes(env, d, 1, { since: start });

    await tickDays(env, org.id, addDays(start, 1), addDays(start, 13));
    expect((await mailboxRow(env, attached.id)).status).toBe('warming');
    expect((await mailboxRow(env, attached.id)).dailyCap).toBe(0);

    await tickDay(env, org.id, addDays(start, 14));
    const ramping = await mailboxRow(env, attached.id);
    expect([ramping.status, ramping.statusSince, ramping.dailyCap]).toEqual(['ramping', addDays(start, 14), 10]);
    const reserve = await mailboxRow(env, spare.id);
    expect([reserve.status, reserve.statusSince, reserve.dailyCap]).toEqual(['reserve', addDays(start, 14), 0]);

    await tickDays(env, org.id, addDays(start, 15), addDays(start, 20));
    expect((await mailboxRow(env, attached.id)).dailyCap).toBe(10); // ramp day 7
    await tickDay(env, org.id, addDays(start, 21));
    expect((await mailboxRow(env, attached.id)).dailyCap).toBe(20); // ramp day 8
    await tickDays(env, org.id, addDays(start, 22), addDays(start, 27));
    expect((await mailboxRow(env, attached.id)).status).toBe('ramping'); // ramp day 14
    await tickDay(env, org.id, addDays(start, 28));
    const active = await mailboxRow(env, attached.id);
    expect([active.status, active.dailyCap]).toEqual(['active', 40]);

    // One health day per mailbox per ticked day (the day each tick closed), what it sent growing with its cap.
    const days = await healthRows(env, [attached.id]);
    expect(days).toHaveLength(28);
    expect(days[0].day).toBe(start);
    const sentOn = (day: string) => days.find((h) => h.day === day)!.sent;
    expect(sentOn(addDays(start, 20)) - sentOn(addDays(start, 13))).toBe(10); // the ramp's cap on top of warm-up mail

    const audit = (await mailboxAudit(env, org.id)).filter((e) => e.action.startsWith('mailbox.'));
    expect(audit.map((e) => [e.actor, e.action, e.target, (e.detail as any).day]).sort()).toEqual(
      [
        ['system', 'mailbox.active', `mailbox:${attached.id}`, addDays(start, 28)],
        ['system', 'mailbox.ramping', `mailbox:${attached.id}`, addDays(start, 14)],
        ['system', 'mailbox.reserve', `mailbox:${spare.id}`, addDays(start, 14)],
      ].sort(),
    );

    const view = await lifecycle(a);
    expect(view.counts).toEqual({ warming: 0, ramping: 0, active: 1, reserve: 1, parked: 0, retired: 0 });
    const row = view.mailboxes.find((m: any) => m.id === attached.id);
    expect(row).toMatchObject({ status: 'active', cap: 40, campaign_ids: [campaign.id], day: 13, parked: null, health: { failing: false, connected: true, domain_listed: false } });
    expect(row.health.sent_7d).toBeGreaterThan(0);
  });

  it('is idempotent for its day: a second run (also a concurrent one) changes nothing', async () => {
    const a = await planTenant(env);
    const { org, client, campaign } = a.t;
    const d = await addDomain(env, org.id, client.id);
    const start = daysAgo(env, 20);
    const boxes = await addMailboxes(env, d, 3, { since: start, campaignId: campaign.id });
    const day = addDays(start, 14);
    const [first, second] = await Promise.all([tickDay(env, org.id, day), tickDay(env, org.id, day)]);
    expect(first.mailboxes + second.mailboxes).toBe(3);
    const before = await Promise.all(boxes.map((m) => mailboxRow(env, m.id)));
    expect(before.map((m) => m.status)).toEqual(['ramping', 'ramping', 'ramping']);
    const again = await tickDay(env, org.id, day);
    expect(again).toMatchObject({ mailboxes: 0, health_days: 0, transitions: 0 });
    expect(await Promise.all(boxes.map((m) => mailboxRow(env, m.id)))).toEqual(before);
    expect(await healthRows(env, boxes.map((m) => m.id))).toHaveLength(3);
    expect((await mailboxAudit(env, org.id)).filter((e) => e.action === 'mailbox.ramping')).toHaveLength(3);
  });
});

describe('auto-protect', () => {
  it('parks a failing active mailbox and swaps a ready reserve in: the campaigns move, both are audited', async () => {
    const a = await planTenant(env);
    const { org, client, campaign } = a.t;
    const d = await addDomain(env, org.id, client.id);
    const [sick] = await addMailboxes(env, d, 1, { status: 'active', since: daysAgo(env, 30), dailyCap: 30, campaignId: campaign.id });
    const [spare] = await addMailboxes(env, d, 1, { status: 'reserve', since: daysAgo(env, 20) });
    await overrideHealth(env, org.id, sick.address, { bounceRate: 0.1 });
    const day = daysAgo(env, 2);
    const r = await tickDay(env, org.id, day);
    expect(r).toMatchObject({ parked: 1, swapped: 1, proposed: 0 });

    const parked = await mailboxRow(env, sick.id);
    expect([parked.status, parked.parkReason, parked.dailyCap, parked.statusSince]).toEqual(['parked', 'bounce_rate', 0, day]);
    expect(parked.parkedAt).not.toBeNull();
    expect(parked.bounceRate7d).toBeGreaterThanOrEqual(0.03);
    const swapped = await mailboxRow(env, spare.id);
    expect([swapped.status, swapped.statusSince, swapped.dailyCap, swapped.replacedMailboxId]).toEqual(['ramping', day, 10, sick.id]);
    expect(await campaignsOf(env, spare.id)).toEqual([campaign.id]);
    expect(await campaignsOf(env, sick.id)).toEqual([]);

    const audit = (await mailboxAudit(env, org.id)).filter((e) => e.action.startsWith('mailbox.'));
    expect(audit.map((e) => [e.actor, e.action, e.target]).sort()).toEqual([
      ['system', 'mailbox.parked', `mailbox:${sick.id}`],
      ['system', 'mailbox.swapped_in', `mailbox:${spare.id}`],
    ]);
    expect(audit.find((e) => e.action === 'mailbox.parked')!.detail).toMatchObject({ reason: 'bounce_rate', client_id: client.id });
    expect(audit.find((e) => e.action === 'mailbox.swapped_in')!.detail).toMatchObject({ replaced_mailbox_id: sick.id });

    const view = await lifecycle(a, '?status=parked');
    expect(view.mailboxes).toHaveLength(1);
    expect(view.mailboxes[0]).toMatchObject({ id: sick.id, status: 'parked', cap: 0, parked: { reason: 'bounce_rate', at: parked.parkedAt!.toISOString() }, health: { failing: true } });
    expect(view.counts).toMatchObject({ parked: 1, ramping: 1, reserve: 0 });
    const mcp = await a.tool('get_mailbox_lifecycle', { client_id: client.id, status: 'ramping' });
    expect(mcp.isError, mcp.text).toBe(false);
    expect(mcp.json.mailboxes.map((m: any) => [m.id, m.replaced_mailbox_id])).toEqual([[spare.id, sick.id]]);
  });

  it('parks for a listed domain and for a disconnect, naming the reason', async () => {
    const a = await planTenant(env);
    const { org, client, campaign } = a.t;
    const listedDomain = await addDomain(env, org.id, client.id);
    const other = await addDomain(env, org.id, client.id);
    const [onListed] = await addMailboxes(env, listedDomain, 1, { status: 'active', since: daysAgo(env, 30), dailyCap: 30, campaignId: campaign.id });
    const [cut] = await addMailboxes(env, other, 1, { status: 'ramping', since: daysAgo(env, 5), dailyCap: 10, campaignId: campaign.id });
    await overrideHealth(env, org.id, listedDomain.name, { listed: true });
    await overrideHealth(env, org.id, cut.address, { disconnected: true });
    await tickDay(env, org.id, daysAgo(env, 1));
    expect((await mailboxRow(env, onListed.id)).parkReason).toBe('domain_listed');
    const c = await mailboxRow(env, cut.id);
    expect([c.status, c.parkReason, c.connected]).toEqual(['parked', 'disconnected', false]);
  });

  it('with no ready reserve proposes one into the plan, which waits: nothing is bought, and never twice for one parking', async () => {
    const a = await planTenant(env);
    const { org, client, campaign } = a.t;
    const d = await addDomain(env, org.id, client.id);
    const [sick] = await addMailboxes(env, d, 1, { status: 'active', since: daysAgo(env, 30), dailyCap: 30, campaignId: campaign.id });
    await overrideHealth(env, org.id, sick.address, { bounceRate: 0.2 });
    const r = await tickDay(env, org.id, daysAgo(env, 3));
    expect(r).toMatchObject({ parked: 1, swapped: 0 });
    expect(r.proposed).toBeGreaterThan(0);
    const [plan] = await env.services.db.select().from(plans).where(eq(plans.clientId, client.id));
    expect(plan.status).toBe('waiting_approval');
    const steps = await env.services.db.select().from(planSteps).where(eq(planSteps.planId, plan.id));
    // The domain has room under the rule's 3 mailboxes per domain: one more mailbox there.
    expect(steps.map((s) => [s.kind, s.status, s.params])).toEqual([['create_mailboxes', 'waiting', { domain: d.name, count: 1 }]]);
    expect(steps[0].createdBy).toBe('system');
    expect(await env.services.db.select().from(simOrders).where(eq(simOrders.orgId, org.id))).toEqual([]);
    expect(await env.services.db.select().from(simMailboxes).where(eq(simMailboxes.orgId, org.id))).toEqual([]);

    // Still parked and unreplaced the next days: no second proposal for the same parking.
    await tickDays(env, org.id, daysAgo(env, 2), daysAgo(env, 1));
    expect(await env.services.db.select().from(planSteps).where(eq(planSteps.clientId, client.id))).toHaveLength(1);
    const marks = (await mailboxAudit(env, org.id)).filter((e) => e.action === 'mailbox.reserve_proposed');
    expect(marks.map((m) => m.target)).toEqual([`mailbox:${sick.id}`]);
    expect(marks[0].detail).toMatchObject({ step_ids: [steps[0].id], how: 'mailboxes_on_own_domain' });
  });

  it('proposes a new domain (buy, DNS, mailboxes) when the domains are full, still buying nothing', async () => {
    const a = await planTenant(env);
    const { org, client, campaign } = a.t;
    await setRule(env, org.id, client.id, { mailboxesPerDomain: 1 });
    const d = await addDomain(env, org.id, client.id);
    const [sick] = await addMailboxes(env, d, 1, { status: 'active', since: daysAgo(env, 30), dailyCap: 30, campaignId: campaign.id });
    await overrideHealth(env, org.id, sick.address, { bounceRate: 0.2 });
    await tickDay(env, org.id, daysAgo(env, 1));
    const steps = await env.services.db.select().from(planSteps).where(eq(planSteps.clientId, client.id));
    // The simulated registrar quotes look-alikes of the client's name ("clienta"); .com is priced under the rule's 1500.
    expect(steps.map((s) => [s.kind, s.day, s.status])).toEqual([
      ['buy_domain', 0, 'waiting'],
      ['setup_dns', 1, 'waiting'],
      ['create_mailboxes', 2, 'waiting'],
    ]);
    const bought = (steps[0].params as { domain: string }).domain;
    expect(bought).toMatch(/clienta.*\.com$/);
    expect(steps[0].params).toEqual({ domain: bought, max_price_cents: 1500 });
    expect(steps[2].params).toEqual({ domain: bought, count: 1 });
    expect(await env.services.db.select().from(simOrders).where(eq(simOrders.orgId, org.id))).toEqual([]);
  });

  it('off: a failing mailbox keeps sending and shows failing; set_auto_protect is audited and idempotent', async () => {
    const a = await planTenant(env);
    const { org, client, campaign } = a.t;
    const off = await a.rest('PUT', `${a.base}/auto-protect`, { auto_protect: false });
    expect(off.status, off.text).toBe(200);
    expect(off.json).toMatchObject({ updated: true, client: { id: client.id, auto_protect: false } });
    const again = await a.tool('set_auto_protect', { client_id: client.id, auto_protect: false });
    expect(again.isError, again.text).toBe(false);
    expect(again.json.updated).toBe(false);
    const d = await addDomain(env, org.id, client.id);
    const [sick] = await addMailboxes(env, d, 1, { status: 'active', since: daysAgo(env, 30), dailyCap: 30, campaignId: campaign.id });
    await overrideHealth(env, org.id, sick.address, { bounceRate: 0.2 });
    const r = await tickDay(env, org.id, daysAgo(env, 1));
    expect(r.parked).toBe(0);
    const m = await mailboxRow(env, sick.id);
    expect([m.status, m.dailyCap]).toEqual(['active', 30]);
    const view = await lifecycle(a);
    expect(view.auto_protect).toBe(false);
    expect(view.mailboxes[0]).toMatchObject({ status: 'active', health: { failing: true, bounced_7d: expect.any(Number) } });
    expect(view.mailboxes[0].health.bounce_rate_7d).toBeGreaterThanOrEqual(0.03);
    const audit = (await mailboxAudit(env, org.id)).filter((e) => e.action === 'client.updated');
    expect(audit.map((e) => [e.actor, e.detail])).toEqual([['key:assistant', { changes: { auto_protect: { from: true, to: false } } }]]);
  });
});

describe('unpark_mailbox', () => {
  it('is refused while the 7-day bounce rate is 2 % or more, allowed after the parked week, and restarts at 5 a day', async () => {
    const a = await planTenant(env);
    const { org, client, campaign } = a.t;
    // A fail- domain bounces 5 % of what it sends and nothing while parked (agency-operator.md §6).
    const d = await addDomain(env, org.id, client.id, `fail-${Date.now().toString(36)}.com`);
    const [m] = await addMailboxes(env, d, 1, { status: 'active', since: daysAgo(env, 30), dailyCap: 30, campaignId: campaign.id });
    const parkDay = daysAgo(env, 8);
    await tickDay(env, org.id, parkDay);
    expect((await mailboxRow(env, m.id)).status).toBe('parked');
    expect(await campaignsOf(env, m.id)).toEqual([campaign.id]); // no reserve: it keeps its campaign

    const path = `${a.base}/mailboxes/unpark`;
    const refused = await a.rest('POST', path, { mailbox_id: m.id });
    expect(refused.status, refused.text).toBe(200);
    expect(refused.json).toMatchObject({ confirm_token: null, blocked_by: 'unpark_refused', preview: { allowed: false, restarts_at: 5, domain_listed: false, mailbox: { id: m.id, status: 'parked' } } });
    expect(refused.json.preview.bounce_rate_7d).toBeGreaterThanOrEqual(0.02);
    const viaMcp = await a.tool('unpark_mailbox', { client_id: client.id, mailbox_id: m.id });
    expect(viaMcp.json).toMatchObject({ confirm_token: null, blocked_by: 'unpark_refused' });

    // Parked, it sends nothing: seven days later the window holds only parked days.
    await tickDays(env, org.id, addDays(parkDay, 1), addDays(parkDay, 6));
    expect((await a.rest('POST', path, { mailbox_id: m.id })).json.blocked_by).toBe('unpark_refused');
    await tickDay(env, org.id, addDays(parkDay, 7));
    const parkedDays = (await healthRows(env, [m.id])).filter((h) => h.day >= parkDay);
    expect(parkedDays.map((h) => h.sent)).toEqual([0, 0, 0, 0, 0, 0, 0]);

    const { preview, done } = await a.confirm(path, { mailbox_id: m.id });
    expect(preview).toMatchObject({ preview: { allowed: true, bounce_rate_7d: 0, next_status: 'ramping', restarts_at: 5 } });
    expect(done.status, done.text).toBe(200);
    expect(done.json.mailbox).toMatchObject({ id: m.id, status: 'ramping', cap: 5, day: 1, parked: null });
    const row = await mailboxRow(env, m.id);
    expect([row.status, row.statusSince, row.rampStartCap, row.dailyCap]).toEqual(['ramping', todayOf(env), 5, 5]);
    const audit = (await mailboxAudit(env, org.id)).filter((e) => e.action === 'mailbox.unparked');
    expect(audit.map((e) => [e.actor, e.target])).toEqual([['key:assistant', `mailbox:${m.id}`]]);

    // A fail- domain bounces again as soon as it sends: the next day auto-protect parks it again.
    await tickDay(env, org.id, addDays(todayOf(env), 1));
    const again = await mailboxRow(env, m.id);
    expect([again.status, again.parkReason]).toEqual(['parked', 'bounce_rate']);
  });

  it('an unparked mailbox ramps 5 a day in week 1, 20 from its 8th day, then active', async () => {
    const a = await planTenant(env);
    const { org, client, campaign } = a.t;
    await setRule(env, org.id, client.id, { dailyCap: 35 });
    const d = await addDomain(env, org.id, client.id);
    const [m] = await addMailboxes(env, d, 1, { status: 'active', since: daysAgo(env, 30), dailyCap: 35, campaignId: campaign.id });
    await overrideHealth(env, org.id, m.address, { bounceRate: 0.25 });
    const parkDay = daysAgo(env, 7);
    await tickDay(env, org.id, parkDay);
    expect((await mailboxRow(env, m.id)).status).toBe('parked');
    await clearOverride(env, org.id, m.address);
    await tickDays(env, org.id, addDays(parkDay, 1), todayOf(env));
    const { done } = await a.confirm(`${a.base}/mailboxes/unpark`, { mailbox_id: m.id });
    expect(done.json.mailbox).toMatchObject({ status: 'ramping', cap: 5 });
    const today = todayOf(env);
    await tickDays(env, org.id, addDays(today, 1), addDays(today, 6));
    expect((await mailboxRow(env, m.id)).dailyCap).toBe(5);
    await tickDay(env, org.id, addDays(today, 7));
    expect((await mailboxRow(env, m.id)).dailyCap).toBe(20);
    await tickDays(env, org.id, addDays(today, 8), addDays(today, 14));
    const active = await mailboxRow(env, m.id);
    expect([active.status, active.dailyCap]).toEqual(['active', 35]);
  });

  it('answers 409 conflict for a mailbox that is not parked, and 404 for an unknown one', async () => {
    const a = await planTenant(env);
    const { org, client } = a.t;
    const d = await addDomain(env, org.id, client.id);
    const [m] = await addMailboxes(env, d, 1, { status: 'reserve', since: daysAgo(env, 3) });
    const r = await a.rest('POST', `${a.base}/mailboxes/unpark`, { mailbox_id: m.id });
    expect(r.status).toBe(409);
    expect(r.json.error.code).toBe('conflict');
    expect(r.json.error.message).toContain('reserve');
    const unknown = await a.rest('POST', `${a.base}/mailboxes/unpark`, { mailbox_id: '00000000-0000-4000-8000-000000000009' });
    expect(unknown.status).toBe(404);
  });
});

describe('attach_mailboxes', () => {
  it('starts a reserve ramping today, leaves a warming one warming, refuses parked ones, and counts only new pairs', async () => {
    const a = await planTenant(env);
    const { org, client, campaign } = a.t;
    const second = await a.t.addCampaign(client.id, 'Campaign 2');
    const d = await addDomain(env, org.id, client.id);
    const [reserve] = await addMailboxes(env, d, 1, { status: 'reserve', since: daysAgo(env, 3) });
    const [warming] = await addMailboxes(env, d, 1, { status: 'warming', since: daysAgo(env, 3) });
    const [parked] = await addMailboxes(env, d, 1, { status: 'parked', since: daysAgo(env, 3) });

    const body = { mailbox_ids: [reserve.id, warming.id], campaign_ids: [campaign.id, second.id] };
    const r = await a.rest('POST', `${a.base}/mailboxes/attach`, body);
    expect(r.status, r.text).toBe(200);
    expect(r.json.attached).toBe(4);
    const byId = new Map(r.json.mailboxes.map((m: any) => [m.id, m]));
    expect(byId.get(reserve.id)).toMatchObject({ status: 'ramping', day: 1, cap: 10, campaign_ids: [campaign.id, second.id].sort() });
    expect(byId.get(warming.id)).toMatchObject({ status: 'warming', cap: 0 });
    const repeat = await a.tool('attach_mailboxes', { client_id: client.id, ...body });
    expect(repeat.isError, repeat.text).toBe(false);
    expect(repeat.json.attached).toBe(0);
    const audit = (await mailboxAudit(env, org.id)).filter((e) => e.action === 'mailbox.ramping' || e.action === 'mailboxes.attached');
    expect(audit.map((e) => [e.actor, e.action])).toEqual([
      ['key:assistant', 'mailbox.ramping'],
      ['key:assistant', 'mailboxes.attached'],
    ]);

    const refused = await a.rest('POST', `${a.base}/mailboxes/attach`, { mailbox_ids: [parked.id], campaign_ids: [campaign.id] });
    expect(refused.status).toBe(409);
    expect(refused.json.error.message).toContain(parked.address);
    expect(await campaignsOf(env, parked.id)).toEqual([]);

    // The warming mailbox ramps once warm because it is attached.
    await tickDay(env, org.id, addDays(daysAgo(env, 3), 14));
    expect((await mailboxRow(env, warming.id)).status).toBe('ramping');
  });

  it("refuses another client's campaign and another client's mailbox with 404 naming it", async () => {
    const a = await planTenant(env);
    const { org, client, campaign } = a.t;
    const otherClient = await a.t.addClient('Client B');
    const otherCampaign = await a.t.addCampaign(otherClient.id, 'B campaign');
    const d = await addDomain(env, org.id, client.id);
    const dB = await addDomain(env, org.id, otherClient.id);
    const [m] = await addMailboxes(env, d, 1, { status: 'reserve' });
    const [mB] = await addMailboxes(env, dB, 1, { status: 'reserve' });
    const wrongCampaign = await a.rest('POST', `${a.base}/mailboxes/attach`, { mailbox_ids: [m.id], campaign_ids: [otherCampaign.id] });
    expect(wrongCampaign.status).toBe(404);
    expect(wrongCampaign.json.error.message).toContain(otherCampaign.id);
    const wrongMailbox = await a.rest('POST', `${a.base}/mailboxes/attach`, { mailbox_ids: [mB.id], campaign_ids: [campaign.id] });
    expect(wrongMailbox.status).toBe(404);
    expect(wrongMailbox.json.error.message).toContain(mB.id);
    expect((await mailboxRow(env, m.id)).status).toBe('reserve');
  });
});

describe('tenant isolation and validation', () => {
  it("answers 404 for another organization's client and mailbox, on every mailbox tool", async () => {
    const a = await planTenant(env);
    const b = await planTenant(env);
    const d = await addDomain(env, b.t.org.id, b.t.client.id);
    const [mB] = await addMailboxes(env, d, 1, { status: 'parked', since: daysAgo(env, 9) });
    const other = `/v1/agency/clients/${b.t.client.id}`;
    for (const [method, path, body] of [
      ['GET', `${other}/mailbox-lifecycle`, undefined],
      ['GET', `${other}/infrastructure`, undefined],
      ['PUT', `${other}/auto-protect`, { auto_protect: false }],
      ['POST', `${other}/mailboxes/unpark`, { mailbox_id: mB.id }],
      ['POST', `${other}/mailboxes/attach`, { mailbox_ids: [mB.id], campaign_ids: [b.t.campaign.id] }],
    ] as const) {
      const r = await a.rest(method, path, body);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.json.error.code).toBe('not_found');
    }
    // Their mailbox through our own client: still not found.
    const viaOwn = await a.rest('POST', `${a.base}/mailboxes/unpark`, { mailbox_id: mB.id });
    expect(viaOwn.status).toBe(404);
    const t = await a.tool('unpark_mailbox', { client_id: b.t.client.id, mailbox_id: mB.id });
    expect(t.isError).toBe(true);
    expect(t.text.startsWith('not_found')).toBe(true);
    expect((await mailboxRow(env, mB.id)).status).toBe('parked');
  });

  it('refuses bad input with 400 naming the field', async () => {
    const a = await planTenant(env);
    const { client, campaign } = a.t;
    const cases: [string, string, unknown, string][] = [
      ['GET', `${a.base}/mailbox-lifecycle?limit=0`, undefined, 'limit'],
      ['GET', `${a.base}/mailbox-lifecycle?limit=201`, undefined, 'limit'],
      ['GET', `${a.base}/mailbox-lifecycle?status=sleeping`, undefined, 'status'],
      ['GET', `/v1/agency/clients/not-a-uuid/mailbox-lifecycle`, undefined, 'client_id'],
      ['PUT', `${a.base}/auto-protect`, { auto_protect: 'yes' }, 'auto_protect'],
      ['PUT', `${a.base}/auto-protect`, {}, 'auto_protect'],
      ['POST', `${a.base}/mailboxes/attach`, { mailbox_ids: [], campaign_ids: [campaign.id] }, 'mailbox_ids'],
      ['POST', `${a.base}/mailboxes/attach`, { mailbox_ids: Array.from({ length: 101 }, () => campaign.id), campaign_ids: [campaign.id] }, 'mailbox_ids'],
      ['POST', `${a.base}/mailboxes/attach`, { mailbox_ids: [campaign.id], campaign_ids: Array.from({ length: 21 }, () => campaign.id) }, 'campaign_ids'],
      ['POST', `${a.base}/mailboxes/attach`, { mailbox_ids: ['x'], campaign_ids: [campaign.id] }, 'mailbox_ids'],
      ['POST', `${a.base}/mailboxes/unpark`, {}, 'mailbox_id'],
      ['POST', `${a.base}/mailboxes/unpark`, { mailbox_id: campaign.id, extra: 1 }, 'extra'],
    ];
    for (const [method, path, body, field] of cases) {
      const r = await a.rest(method, path, body);
      expect(r.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      expect(r.json.error.code).toBe('validation_error');
      expect(JSON.stringify(r.json.error), path).toContain(field);
    }
    const t = await a.tool('get_mailbox_lifecycle', { client_id: client.id, limit: 500 });
    expect(t.isError).toBe(true);
    expect(t.text.startsWith('validation_error')).toBe(true);
  });
});

