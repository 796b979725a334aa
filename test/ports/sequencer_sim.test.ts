// The simulated sequencer: one campaign per reference (mailboxes follow the latest call), one lead per campaign and
// email however often or concurrently it is pushed, sends within each mailbox's daily cap spread over the days, a
// re-run of a day sending nothing twice, outcomes deterministic by seed and about as often as the rule says.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simSequencerCampaigns, simSequencerLeads, simSequencerSends } from '../../schema';
import type { SequencerLead } from '../../lib/ports/sequencer/port';
import { createSimSequencer } from '../../lib/ports/sequencer/sim';
import { addDays, runSimSequencerDay } from '../../lib/ports/sequencer/sim_day';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const sim = createSimSequencer();
const deps = () => ({ db: env.services.db });
const newOrg = async () => (await newTenant(env)).org.id;
const lead = (i: number, steps = 3, prefix = 'p'): SequencerLead => ({
  email: `${prefix}${i}@prospect${i % 37}.com`,
  first_name: `Ann${i}`,
  last_name: 'Lee',
  company: `Co ${i}`,
  mails: Array.from({ length: steps }, (_, s) => ({ step: s + 1, subject: s === 0 ? `Hello ${i}` : null, body: `Mail ${s + 1} for ${i}`, delay_days: s === 0 ? 0 : 3 })),
});
const boxes = (n: number, cap: number, domain = 'brand.com') => Array.from({ length: n }, (_, i) => ({ address: `sender${i}@${domain}`, daily_cap: cap }));

async function campaignWith(orgId: string, leads: SequencerLead[], mailboxes = boxes(2, 10), reference: string = crypto.randomUUID()) {
  const c = await sim.ensureCampaign(deps(), { orgId, reference, name: 'Test', mailboxes });
  if (!c.ok) throw new Error(c.detail);
  for (let i = 0; i < leads.length; i += 100) {
    const r = await sim.addLeads(deps(), { orgId, provider_campaign_id: c.provider_campaign_id, leads: leads.slice(i, i + 100) });
    if (!r.ok) throw new Error(r.detail);
  }
  return c.provider_campaign_id;
}

const sendsOf = (campaignId: string) => env.services.db.select().from(simSequencerSends).where(eq(simSequencerSends.campaignId, campaignId));

describe('the simulated sequencer: campaigns and leads', () => {
  it('answers the same campaign for the same reference and keeps the latest mailboxes', async () => {
    const orgId = await newOrg();
    const first = await sim.ensureCampaign(deps(), { orgId, reference: 'camp-1', name: 'A', mailboxes: boxes(1, 10) });
    const again = await sim.ensureCampaign(deps(), { orgId, reference: 'camp-1', name: 'A', mailboxes: boxes(3, 15) });
    expect(first).toMatchObject({ ok: true, repeated: false, simulated: true });
    expect(again).toMatchObject({ ok: true, repeated: true });
    if (!first.ok || !again.ok) throw new Error('unreachable');
    expect(again.provider_campaign_id).toBe(first.provider_campaign_id);
    const rows = await env.services.db.select().from(simSequencerCampaigns).where(eq(simSequencerCampaigns.orgId, orgId));
    expect(rows).toHaveLength(1);
    expect(rows[0].mailboxes).toEqual(boxes(3, 15));
    // Another organization's same reference is its own campaign.
    const other = await sim.ensureCampaign(deps(), { orgId: await newOrg(), reference: 'camp-1', name: 'A', mailboxes: boxes(1, 10) });
    expect(other.ok && other.provider_campaign_id).not.toBe(first.provider_campaign_id);
  });

  it('adds a lead once: a repeated push and concurrent pushes count it as already', async () => {
    const orgId = await newOrg();
    const id = await campaignWith(orgId, []);
    const leads = Array.from({ length: 40 }, (_, i) => lead(i));
    expect(await sim.addLeads(deps(), { orgId, provider_campaign_id: id, leads })).toEqual({ ok: true, added: 40, already: 0, simulated: true });
    expect(await sim.addLeads(deps(), { orgId, provider_campaign_id: id, leads })).toEqual({ ok: true, added: 0, already: 40, simulated: true });
    const more = Array.from({ length: 30 }, (_, i) => lead(i, 3, 'q'));
    const results = await Promise.all(Array.from({ length: 6 }, () => sim.addLeads(deps(), { orgId, provider_campaign_id: id, leads: more })));
    expect(results.reduce((s, r) => s + (r.ok ? r.added : 0), 0)).toBe(30);
    expect(results.reduce((s, r) => s + (r.ok ? r.already : 0), 0)).toBe(150);
    const rows = await env.services.db.select().from(simSequencerLeads).where(eq(simSequencerLeads.campaignId, id));
    expect(rows).toHaveLength(70);
    expect(rows.every((r) => r.nextStep === 1 && r.nextDay === null)).toBe(true);
  });

  it('refuses more than 100 leads, a bad email, and another organization campaign', async () => {
    const orgId = await newOrg();
    const id = await campaignWith(orgId, []);
    const tooMany = await sim.addLeads(deps(), { orgId, provider_campaign_id: id, leads: Array.from({ length: 101 }, (_, i) => lead(i)) });
    expect(tooMany).toMatchObject({ ok: false, reason: 'error', detail: expect.stringContaining('100') });
    expect(await sim.addLeads(deps(), { orgId, provider_campaign_id: id, leads: [{ ...lead(1), email: 'nope' }] })).toMatchObject({ ok: false, reason: 'error' });
    expect(await sim.addLeads(deps(), { orgId: await newOrg(), provider_campaign_id: id, leads: [lead(1)] })).toMatchObject({ ok: false, reason: 'error' });
    expect(await sim.addLeads(deps(), { orgId, provider_campaign_id: 'not-a-uuid', leads: [lead(1)] })).toMatchObject({ ok: false, reason: 'error' });
  });
});

describe('the simulated sequencer: a sending day', () => {
  it('sends within each mailbox cap per day; the rest wait for the next day; a re-run sends nothing twice', async () => {
    const orgId = await newOrg();
    const id = await campaignWith(orgId, Array.from({ length: 50 }, (_, i) => lead(i, 1)));
    const day1 = await runSimSequencerDay(env.services.db, 'seed', orgId, '2026-03-02');
    expect(day1.sent + day1.bounced + day1.replied).toBe(20);
    const again = await runSimSequencerDay(env.services.db, 'seed', orgId, '2026-03-02');
    expect(again).toEqual({ sent: 0, bounced: 0, replied: 0, replies: [] });
    const sends1 = await sendsOf(id);
    expect(sends1).toHaveLength(20);
    const perBox = (rows: typeof sends1, day: string) =>
      rows.filter((r) => r.day === day).reduce<Record<string, number>>((m, r) => ({ ...m, [r.mailbox]: (m[r.mailbox] ?? 0) + 1 }), {});
    expect(perBox(sends1, '2026-03-02')).toEqual({ 'sender0@brand.com': 10, 'sender1@brand.com': 10 });
    await runSimSequencerDay(env.services.db, 'seed', orgId, '2026-03-03');
    await runSimSequencerDay(env.services.db, 'seed', orgId, '2026-03-04');
    const all = await sendsOf(id);
    expect(all).toHaveLength(50);
    expect(perBox(all, '2026-03-04')).toEqual({ 'sender0@brand.com': 5, 'sender1@brand.com': 5 });
    expect(new Set(all.map((s) => s.leadEmail)).size).toBe(50);
  });

  it('sends follow-ups after their delay and ends a sequence at a bounce or a reply', async () => {
    const orgId = await newOrg();
    const id = await campaignWith(orgId, Array.from({ length: 60 }, (_, i) => lead(i, 2)), boxes(3, 100));
    await runSimSequencerDay(env.services.db, 'follow', orgId, '2026-03-02');
    const first = await sendsOf(id);
    expect(first).toHaveLength(60);
    for (let d = 1; d <= 2; d++) await runSimSequencerDay(env.services.db, 'follow', orgId, addDays('2026-03-02', d));
    expect(await sendsOf(id)).toHaveLength(60);
    await runSimSequencerDay(env.services.db, 'follow', orgId, '2026-03-05');
    const all = await sendsOf(id);
    const ended = new Set(first.filter((s) => s.outcome !== 'sent').map((s) => s.leadEmail));
    const second = all.filter((s) => s.step === 2);
    expect(second).toHaveLength(60 - ended.size);
    expect(second.every((s) => s.day === '2026-03-05' && !ended.has(s.leadEmail))).toBe(true);
    const leads = await env.services.db.select().from(simSequencerLeads).where(eq(simSequencerLeads.campaignId, id));
    expect(leads.every((l) => l.nextStep === null)).toBe(true);
  });

  it('is deterministic by seed; bounces and replies come about as often as the rule says over 2,000 leads', async () => {
    const run = async (seed: string, domain = 'brand.com') => {
      const orgId = await newOrg();
      const id = await campaignWith(orgId, Array.from({ length: 2000 }, (_, i) => lead(i, 1)), boxes(4, 500, domain), 'rates-campaign');
      const day = await runSimSequencerDay(env.services.db, seed, orgId, '2026-03-02');
      return { id, day };
    };
    const a = await run('rates');
    const b = await run('rates');
    expect(a.day.sent + a.day.bounced + a.day.replied).toBe(2000);
    expect({ ...b.day, replies: b.day.replies.map((r) => [r.email, r.body, r.message_id]) }).toEqual({
      ...a.day,
      replies: a.day.replies.map((r) => [r.email, r.body, r.message_id]),
    });
    expect(a.day.bounced / 2000).toBeGreaterThan(0.01);
    expect(a.day.bounced / 2000).toBeLessThan(0.03);
    expect(a.day.replied / 2000).toBeGreaterThan(0.025);
    expect(a.day.replied / 2000).toBeLessThan(0.055);
    expect(a.day.replies).toHaveLength(a.day.replied);
    const other = await run('another seed');
    expect(other.day.replies.map((r) => r.email)).not.toEqual(a.day.replies.map((r) => r.email));
    const failing = await run('rates', 'fail-brand.com');
    expect(failing.day.bounced / 2000).toBeGreaterThan(0.035);
    expect(failing.day.bounced / 2000).toBeLessThan(0.065);

    // Every reply is stored with its text, names the lead by first name and the campaign by its reference.
    const replied = await env.services.db
      .select()
      .from(simSequencerSends)
      .where(and(eq(simSequencerSends.campaignId, a.id), eq(simSequencerSends.outcome, 'replied')));
    expect(replied.map((r) => r.replyBody).sort()).toEqual(a.day.replies.map((r) => r.body).sort());
    for (const r of a.day.replies) {
      expect(r.body).toContain(r.first_name!);
      expect(r.provider_campaign_id).toBe(a.id);
      expect(r.message_id).toMatch(/^<sim-[0-9a-f]{32}@sequencer\.sim>$/);
    }
  });
});
