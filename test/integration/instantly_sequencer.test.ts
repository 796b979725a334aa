// The production sequencer (lib/ports/sequencer/instantly.ts) against a local fake of Instantly API v2
// (test/infra/fake_instantly_v2.ts): the documented requests (Bearer key; the reference in the campaign name and
// looked up before creating; the minimal schedule; the per-lead template variables; the bulk lead endpoint with
// skip_if_in_campaign), each answer kind (created, repeated, added, already, 429 with Retry-After, 5xx, timeout,
// refused key), no key in any detail, and the refusal of SEQUENCER=instantly without a key at start.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config';
import { createSequencer } from '../../lib/ports/sequencer';
import { createInstantlySequencer, referencedName, SEQUENCE_DELAYS } from '../../lib/ports/sequencer/instantly';
import type { SequencerLead } from '../../lib/ports/sequencer/port';
import { startFakeInstantlyV2, type FakeInstantlyV2 } from '../infra/fake_instantly_v2';

const KEY = 'inst_test_key_7e57c0de';
let fake: FakeInstantlyV2;
beforeAll(async () => {
  fake = await startFakeInstantlyV2({ apiKey: KEY });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const sequencer = (o: { key?: string; timeoutMs?: number } = {}) => createInstantlySequencer({ apiKey: o.key ?? KEY, baseUrl: fake.url, timeoutMs: o.timeoutMs });
// The adapter never touches the database.
const deps = { db: null as never };
const mailboxes = [
  { address: 'Ann@Brand.com', daily_cap: 20 },
  { address: 'bob@brand.com', daily_cap: 30 },
];
const ensure = (reference = 'camp-1', s = sequencer()) => s.ensureCampaign(deps, { orgId: 'org', reference, name: 'Acme Q3', mailboxes });
const lead = (i: number): SequencerLead => ({
  email: `Lead${i}@Prospect.com`,
  first_name: `Ann${i}`,
  last_name: 'Lee',
  company: 'Prospect Inc',
  mails: [
    { step: 2, subject: null, body: `Following up ${i}`, delay_days: 3 },
    { step: 1, subject: `Hello ${i}`, body: `First mail ${i}`, delay_days: 0 },
  ],
});

async function campaignId() {
  const c = await ensure();
  if (!c.ok) throw new Error(c.detail);
  return c.provider_campaign_id;
}

describe('Instantly API v2 as the sequencer', () => {
  it('creates a campaign named with its reference: search first, then POST with schedule, mailboxes, template', async () => {
    const r = await ensure();
    expect(r).toMatchObject({ ok: true, repeated: false });
    expect(fake.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /api/v2/campaigns', 'POST /api/v2/campaigns']);
    const [search, create] = fake.requests;
    expect(search.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(search.query).toMatchObject({ search: '[ref:camp-1]' });
    expect(create.json).toMatchObject({
      name: referencedName('Acme Q3', 'camp-1'),
      email_list: ['ann@brand.com', 'bob@brand.com'],
      daily_limit: 50,
      campaign_schedule: { schedules: [{ timing: { from: '09:00', to: '17:00' }, timezone: expect.any(String) }] },
    });
    const steps = create.json.sequences[0].steps;
    expect(steps).toHaveLength(SEQUENCE_DELAYS.length);
    expect(steps[1]).toMatchObject({ type: 'email', delay: SEQUENCE_DELAYS[1], variants: [{ subject: '{{step2_subject}}', body: '{{step2_body}}' }] });
    expect(r.ok && fake.campaigns.get(r.provider_campaign_id)?.name).toBe('Acme Q3 [ref:camp-1]');
  });

  it('answers repeated for a reference it already created, updating the mailboxes, never a second campaign', async () => {
    const first = await ensure();
    fake.reset();
    const id = first.ok ? first.provider_campaign_id : '';
    fake.campaigns.set(id, { id, name: 'Acme Q3 [ref:camp-1]', status: 1, email_list: ['old@brand.com'], daily_limit: 5, campaign_schedule: {}, sequences: [] });
    // A campaign whose reference merely contains ours is not ours.
    fake.campaigns.set('x', { id: 'x', name: 'Other [ref:camp-10]', status: 1, email_list: [], daily_limit: 0, campaign_schedule: {}, sequences: [] });
    const again = await ensure();
    expect(again).toEqual({ ok: true, provider_campaign_id: id, repeated: true });
    expect(fake.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /api/v2/campaigns', `PATCH /api/v2/campaigns/${id}`]);
    expect(fake.campaigns.get(id)).toMatchObject({ email_list: ['ann@brand.com', 'bob@brand.com'], daily_limit: 50 });
    expect([...fake.campaigns.values()].filter((c) => c.name.includes('[ref:camp-1]'))).toHaveLength(1);
  });

  it('adds leads in bulk with their mails as custom variables; a repeated push counts them as already', async () => {
    const id = await campaignId();
    fake.reset();
    fake.campaigns.set(id, { id, name: 'Acme Q3 [ref:camp-1]', status: 1, email_list: [], daily_limit: 0, campaign_schedule: {}, sequences: [] });
    const leads = [lead(1), lead(2), lead(3)];
    expect(await sequencer().addLeads(deps, { orgId: 'org', provider_campaign_id: id, leads })).toEqual({ ok: true, added: 3, already: 0 });
    const [add] = fake.requests;
    expect(add).toMatchObject({ method: 'POST', path: '/api/v2/leads/add' });
    expect(add.json).toMatchObject({ campaign_id: id, skip_if_in_campaign: true });
    expect(add.json.leads[0]).toEqual({
      email: 'lead1@prospect.com',
      first_name: 'Ann1',
      last_name: 'Lee',
      company_name: 'Prospect Inc',
      custom_variables: { step1_subject: 'Hello 1', step1_body: 'First mail 1', step2_subject: '', step2_body: 'Following up 1' },
    });
    expect(await sequencer().addLeads(deps, { orgId: 'org', provider_campaign_id: id, leads: [lead(1), lead(4)] })).toEqual({ ok: true, added: 1, already: 1 });
    expect(fake.leadsOf(id)).toHaveLength(4);
  });

  it('activates a draft campaign once it has leads and mailboxes; again is harmless; a refusal is an outcome', async () => {
    const id = await campaignId();
    fake.reset();
    fake.campaigns.set(id, { id, name: 'Acme Q3 [ref:camp-1]', status: 0, email_list: ['ann@brand.com'], daily_limit: 20, campaign_schedule: {}, sequences: [] });
    const empty = await sequencer().activateCampaign(deps, { orgId: 'org', provider_campaign_id: id });
    expect(empty).toMatchObject({ ok: false, reason: 'error' });
    expect(fake.campaigns.get(id)!.status).toBe(0);
    await sequencer().addLeads(deps, { orgId: 'org', provider_campaign_id: id, leads: [lead(1)] });
    expect(await sequencer().activateCampaign(deps, { orgId: 'org', provider_campaign_id: id })).toEqual({ ok: true });
    expect(fake.campaigns.get(id)!.status).toBe(1);
    expect(await sequencer().activateCampaign(deps, { orgId: 'org', provider_campaign_id: id })).toEqual({ ok: true });
    const calls = fake.requests.filter((q) => q.path === `/api/v2/campaigns/${id}/activate`);
    expect(calls).toHaveLength(3);
    expect(calls[0]).toMatchObject({ method: 'POST', json: {} });
  });

  it('refuses more than 100 leads and bad emails before calling', async () => {
    const tooMany = await sequencer().addLeads(deps, { orgId: 'org', provider_campaign_id: 'c', leads: Array.from({ length: 101 }, (_, i) => lead(i)) });
    expect(tooMany).toMatchObject({ ok: false, reason: 'error' });
    expect(await sequencer().addLeads(deps, { orgId: 'org', provider_campaign_id: 'c', leads: [{ ...lead(1), email: 'nope' }] })).toMatchObject({ ok: false, reason: 'error' });
    expect(fake.requests).toHaveLength(0);
  });

  it('429 is rate_limited with Retry-After; 5xx, timeouts and a refused key are errors; no key in details', async () => {
    const id = await campaignId();
    fake.setFailure({ status: 429, retryAfterSec: 17 });
    const limited = await sequencer().addLeads(deps, { orgId: 'org', provider_campaign_id: id, leads: [lead(1)] });
    expect(limited).toMatchObject({ ok: false, reason: 'rate_limited', retry_after_sec: 17 });
    expect(await ensure('camp-2')).toMatchObject({ ok: false, reason: 'rate_limited', retry_after_sec: 17 });

    fake.setFailure({ status: 503 });
    const down = await sequencer().addLeads(deps, { orgId: 'org', provider_campaign_id: id, leads: [lead(1)] });
    expect(down).toMatchObject({ ok: false, reason: 'error' });
    expect(await ensure('camp-3')).toMatchObject({ ok: false, reason: 'error' });

    fake.setFailure({ slowMs: 1_000 });
    const slow = await sequencer({ timeoutMs: 100 }).addLeads(deps, { orgId: 'org', provider_campaign_id: id, leads: [lead(1)] });
    expect(slow).toMatchObject({ ok: false, reason: 'error', detail: expect.stringContaining('timeout') });
    fake.setFailure(null);

    const wrong = await sequencer({ key: 'wrong_key_abcdef' }).addLeads(deps, { orgId: 'org', provider_campaign_id: id, leads: [lead(1)] });
    expect(wrong).toMatchObject({ ok: false, reason: 'error' });
    for (const r of [limited, down, slow, wrong]) expect(JSON.stringify(r)).not.toContain(KEY);
    expect(JSON.stringify(wrong)).not.toContain('wrong_key_abcdef');
    expect(fake.leadsOf(id)).toHaveLength(0);
  });

  it('refuses SEQUENCER=instantly without INSTANTLY_API_KEY at start', () => {
    expect(() => createSequencer(loadConfig({ SEQUENCER: 'instantly' }))).toThrow(/INSTANTLY_API_KEY/);
    expect(createSequencer(loadConfig({ SEQUENCER: 'instantly', INSTANTLY_API_KEY: KEY })).kind).toBe('instantly');
    expect(createSequencer(loadConfig({})).kind).toBe('sim');
  });
});
