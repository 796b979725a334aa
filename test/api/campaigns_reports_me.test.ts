import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';
import { briefPeriod } from '../../lib/reports/write_brief';
import { crmTenant } from './crm_helpers';
import { keyAt } from './send_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

describe('GET /v1/campaigns', () => {
  it('lists campaigns with stats, rates and client, filtered by status', async () => {
    const t = await newTenant(env);
    await t.reply();
    await t.reply();
    const paused = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/campaigns`, { name: 'Old', status: 'paused', sent: 0 });
    expect(paused.status).toBe(201);
    const all = await t.call('GET', '/v1/campaigns');
    expect(all.status).toBe(200);
    expect(all.json).toMatchObject({ count: 2, total_count: 2, has_more: false });
    const a = all.json.campaigns.find((c: any) => c.name === 'Campaign A');
    expect(a).toMatchObject({ status: 'active', sent: 200, replied: 2, reply_rate: 0.01, open_rate: 0.4, client: { id: t.client.id, name: 'Client A' } });
    expect(Date.parse(a.stats_last_synced_at)).not.toBeNaN();
    const old = all.json.campaigns.find((c: any) => c.name === 'Old');
    expect(old).toMatchObject({ reply_rate: 0, open_rate: 0, client: null });
    const onlyPaused = await t.call('GET', '/v1/campaigns?status=paused');
    expect(onlyPaused.json.campaigns.map((c: any) => c.name)).toEqual(['Old']);
    expect((await t.call('GET', '/v1/campaigns?status=done')).status).toBe(400);
    expect((await t.call('GET', '/v1/campaigns?limit=101')).status).toBe(400);
  });

  it('stamps stats_last_synced_at when stats are synced', async () => {
    const t = await newTenant(env);
    env.clock.advance(60_000);
    const r = await t.admin('PATCH', `/admin/v1/campaigns/${t.campaign.id}`, { sent: 400, opened: 100 });
    expect(r.status).toBe(200);
    expect(r.json.campaign).toMatchObject({ sent: 400, open_rate: 0.25 });
    expect(Date.parse(r.json.campaign.stats_last_synced_at)).toBeGreaterThan(Date.parse(t.campaign.stats_last_synced_at));
  });

  it('shows a client-locked key only its client’s campaigns', async () => {
    const t = await newTenant(env);
    const b = await t.addClient();
    await t.addCampaign(b.id, 'B campaign');
    const locked = await t.addKey({ client_id: t.client.id });
    const r = await t.call('GET', '/v1/campaigns', { key: locked });
    expect(r.json.campaigns.map((c: any) => c.name)).toEqual(['Campaign A']);
  });
});

describe('reports', () => {
  it('generates a brief from real numbers and serves it through list and get', async () => {
    const t = await newTenant(env);
    await t.reply({ body: 'Yes! Can we book a call Thursday?', from_email: 'hot@lead.com', from_name: 'Hannah' });
    await t.reply({ body: 'Unsubscribe me please.' });
    const gen = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/reports/generate`, { brief_type: 'friday' });
    expect(gen.status).toBe(201);
    const report = gen.json.report;
    expect(report.brief_type).toBe('friday');
    expect(report.stats_snapshot.replies_total).toBe(2);
    expect(report.stats_snapshot.replies_by_classification).toMatchObject({ hot: 1, not_interested: 1 });
    expect(report.stats_snapshot.hot_leads).toEqual([{ email: 'hot@lead.com', name: 'Hannah', campaign_name: 'Campaign A' }]);
    expect(report.executive_summary).toContain('2 replies');
    expect(report.summary_bullets.some((b: string) => b.includes('hot@lead.com'))).toBe(true);
    expect(report.period_start <= report.period_end).toBe(true);

    const list = await t.call('GET', '/v1/reports');
    expect(list.json).toMatchObject({ count: 1, total_count: 1, limit: 20 });
    expect((await t.call('GET', '/v1/reports?type=monday')).json.count).toBe(0);
    const one = await t.call('GET', `/v1/reports/${report.id}`);
    expect(one.json.report).toEqual(report);
    expect((await t.call('GET', '/v1/reports/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await t.call('GET', '/v1/reports?limit=51')).status).toBe(400);
  });

  it('keeps organization-wide briefs from client-locked keys, and shows their own client’s', async () => {
    const t = await newTenant(env);
    await t.admin('POST', `/admin/v1/orgs/${t.org.id}/reports/generate`, { brief_type: 'monday' });
    const own = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/reports/generate`, { brief_type: 'monday', client_id: t.client.id });
    const locked = await t.addKey({ client_id: t.client.id });
    const r = await t.call('GET', '/v1/reports', { key: locked });
    expect(r.json.reports.map((x: any) => x.id)).toEqual([own.json.report.id]);
  });

  it('generates scheduled briefs once per organization and period', async () => {
    const { runBriefs, dueBriefTypes } = await import('../../lib/reports/schedule');
    const t = await newTenant(env);
    const friday = new Date('2026-11-20T16:05:00Z');
    expect(dueBriefTypes(friday)).toEqual(['friday']);
    expect(dueBriefTypes(new Date('2026-11-20T15:59:00Z'))).toEqual([]);
    expect(dueBriefTypes(new Date('2026-11-23T07:00:00Z'))).toEqual(['monday']);
    await runBriefs({ db: env.services.db, types: ['friday'], now: friday });
    await runBriefs({ db: env.services.db, types: ['friday'], now: new Date('2026-11-20T17:05:00Z') });
    const reports = (await t.call('GET', '/v1/reports')).json.reports.filter((r: any) => r.period_end === '2026-11-20');
    expect(reports).toHaveLength(1);
    expect(reports[0].period_start).toBe('2026-11-16');
  });
});

describe('briefs reflect the current state and the period', () => {
  const HOT = 'Yes! Can we book a call Thursday?';

  it('"follow up today" names only hot leads still waiting: not answered, skipped, won or lost', async () => {
    const t = await crmTenant(env);
    const sender = await keyAt(t, 2);
    const lead = async (email: string) => (await t.reply({ from_email: email, from_name: null, body: HOT })).reply;
    const waiting = await lead('waiting@lead.com');
    const answered = await lead('answered@lead.com');
    const skipped = await lead('skipped@lead.com');
    const won = await lead('won@lead.com');
    const lost = await lead('lost@lead.com');
    const again = await lead('again@lead.com');
    for (const r of [answered, again]) expect((await t.call('POST', `/v1/replies/${r.id}/send`, { key: sender, body: { body: 'Thursday works.' } })).status).toBe(200);
    expect((await t.call('POST', `/v1/replies/${skipped.id}/skip`, { body: { reason: 'answered by phone' } })).status).toBe(200);
    const leadOf = async (r: { id: string }) => (await t.call('GET', `/v1/replies?limit=100`)).json.replies.find((x: any) => x.id === r.id).lead_id;
    expect((await t.crm('PATCH', `/v1/crm/leads/${await leadOf(won)}`, { phase: 'won' })).status).toBe(200);
    expect((await t.crm('PATCH', `/v1/crm/leads/${await leadOf(lost)}`, { phase: 'lost' })).status).toBe(200);
    env.clock.advance(60_000);
    const wroteAgain = await t.reply({ from_email: 'again@lead.com', body: HOT }); // answered, then wrote again
    expect(wroteAgain.reply.classification).toBe('hot');

    const report = (await t.admin('POST', `/admin/v1/orgs/${t.org.id}/reports/generate`, { brief_type: 'friday' })).json.report;
    expect(report.stats_snapshot.follow_up.map((h: any) => h.email).sort()).toEqual(['again@lead.com', 'waiting@lead.com']);
    // hot_leads still lists every hot lead of the period.
    expect(report.stats_snapshot.hot_leads).toHaveLength(6);
    const followUps = report.summary_bullets.filter((b: string) => b.includes('follow up today'));
    expect(followUps).toHaveLength(2);
    for (const email of ['answered', 'skipped', 'won', 'lost']) expect(report.summary_bullets.join('\n')).not.toContain(`${email}@lead.com`);
  });

  it("the monday brief's campaign figures and rates are the period's, not the campaign's lifetime", async () => {
    const t = await newTenant(env);
    const period = briefPeriod('monday', env.clock.now());
    const day = (n: number) => new Date(period.start.getTime() + n * 86_400_000 + 10 * 3_600_000).toISOString();
    // Before the period: three positive replies that must not count.
    for (let i = 0; i < 3; i++) await t.reply({ body: HOT, received_at: day(-3 - i) });
    // In the period: one hot, one warm, one not interested (two prospects: the first replies twice).
    await t.reply({ from_email: 'pat@lead.com', body: 'Not now, maybe next quarter.', received_at: day(1) });
    await t.reply({ from_email: 'pat@lead.com', body: HOT, received_at: day(2) });
    await t.reply({ from_email: 'kim@lead.com', body: 'Unsubscribe me please.', received_at: day(3) });
    // After the period (today): not this brief's either.
    await t.reply({ body: HOT });

    const report = (await t.admin('POST', `/admin/v1/orgs/${t.org.id}/reports/generate`, { brief_type: 'monday' })).json.report;
    expect(report.stats_snapshot.replies_total).toBe(3);
    expect(report.stats_snapshot.campaigns).toEqual([{ id: t.campaign.id, name: 'Campaign A', replies: 3, replied: 2, positive: 2, positive_rate: 0.6667 }]);
    const text = [report.executive_summary, ...report.summary_bullets].join('\n');
    expect(text).toContain('Campaign A: 3 replies from 2 prospects in the period, 2 positive (66.7%).');
    expect(text).toContain('66.7% positive');
    // No lifetime figure (the campaign has 200 sent and 6 prospects who ever replied) appears in the brief.
    expect(text).not.toMatch(/200|of 6|3\.0%/);
  });
});

describe('GET /v1/me', () => {
  it('describes the key to any valid key', async () => {
    const t = await newTenant(env);
    const { key, secret } = await t.addKeyRecord({ name: 'agent', scopes: ['leads.read'], autonomy_level: 2, rate_limit_per_minute: 30, daily_credit_limit: 50 });
    const r = await t.call('GET', '/v1/me', { key: secret });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      key: { id: key.id, name: 'agent', prefix: 'live', scopes: ['leads.read'], client_id: null, autonomy_level: 2, read_only: false },
      organization: { id: t.org.id, name: t.org.name },
      rate_limit_per_minute: 30,
      daily_credit_limit: 50,
      credits_remaining: 50,
    });
    expect(r.headers.get('x-ratelimit-limit')).toBe('30');
  });
});
