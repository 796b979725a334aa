// get_course from real data on fixed dates (the test clock is moved to each date): pool additions per workday,
// prospects who replied, booked meetings (the admin route and the CRM's meeting stages), each status, the
// organization's timezone, custom agreements, tenant isolation; REST and MCP give the same answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { addPoolLeads, auditOf, studioTenant, type StudioTenant } from './pool_reads_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

/** Moves the test clock to an instant (the service reads time only from it). */
const setNow = (iso: string) => env.clock.advance(Date.parse(iso) - env.clock.now().getTime());

async function agree(a: StudioTenant, clientId: string, body: Record<string, unknown>) {
  const r = await a.rest('POST', `/v1/agency/clients/${clientId}/agreements`, body);
  expect(r.status, r.text).toBe(201);
  return r.json.agreement as { id: string };
}

/** get_course on both faces (with the given arguments), which must agree; the REST body. */
async function course(a: StudioTenant, args: { client_id?: string } = {}) {
  const rest = await a.rest('GET', `/v1/agency/course${args.client_id ? `?client_id=${args.client_id}` : ''}`);
  expect(rest.status, rest.text).toBe(200);
  const tool = await a.tool('get_course', args);
  expect(tool.isError, tool.text).toBe(false);
  expect(tool.json).toEqual(rest.json);
  return rest.json.course as { client_id: string; agreement_id: string; kind: string; target: number; actual: number | null; expected_to_date: number | null; status: string }[];
}

const leadsAt = (days: string[]) => days.map((d) => ({ createdAt: new Date(`${d}T10:00:00Z`) }));

describe('get_course', () => {
  it('counts pool additions per workday since the start and gives each status', async () => {
    const a = await studioTenant(env);
    const [b, c, d] = [await a.t.addClient('B'), await a.t.addClient('C'), await a.t.addClient('D')];
    setNow('2026-03-06T12:00:00Z'); // Friday: Monday to Thursday completed → 2 × 4 = 8 expected
    const body = { kind: 'new_prospects_per_workday', target: 2, start: '2026-03-02' };
    const onTrack = await agree(a, a.t.client.id, body);
    const atRisk = await agree(a, b.id, body);
    const offTrack = await agree(a, c.id, body);
    const notStarted = await agree(a, d.id, { ...body, start: '2026-03-09' });
    const week = ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05'];
    // 8 for A (one of them added today), plus what must not count: before the start, removed, another client's.
    await addPoolLeads(env, a.t, [...leadsAt([...week, ...week.slice(0, 3)]), { createdAt: new Date('2026-03-06T08:00:00Z') }, { createdAt: new Date('2026-02-27T10:00:00Z') }, { createdAt: new Date('2026-03-03T10:00:00Z'), status: 'removed' }]);
    await addPoolLeads(env, a.t, leadsAt([...week, ...week.slice(0, 3)]), b.id); // 7 ≥ 80 % of 8
    await addPoolLeads(env, a.t, [...leadsAt(week), { createdAt: new Date('2026-03-05T10:00:00Z'), email: null, status: 'waiting_for_email', personKey: 'x|y' }, { createdAt: new Date('2026-03-04T09:00:00Z') }], c.id); // 6: off track
    await addPoolLeads(env, a.t, leadsAt(week), d.id);
    const all = await course(a);
    const by = (id: string) => all.find((x) => x.agreement_id === id);
    expect(by(onTrack.id)).toEqual({ client_id: a.t.client.id, agreement_id: onTrack.id, kind: 'new_prospects_per_workday', target: 2, actual: 8, expected_to_date: 8, status: 'on track' });
    expect(by(atRisk.id)).toMatchObject({ client_id: b.id, actual: 7, expected_to_date: 8, status: 'at risk' });
    expect(by(offTrack.id)).toMatchObject({ client_id: c.id, actual: 6, expected_to_date: 8, status: 'off track' });
    expect(by(notStarted.id)).toMatchObject({ client_id: d.id, actual: 0, expected_to_date: 0, status: 'not started' });
    expect((await course(a, { client_id: b.id })).map((x) => x.agreement_id)).toEqual([atRisk.id]);
    // The next Monday: Friday completed too, 10 expected; A stays at 8 → at risk.
    setNow('2026-03-09T06:00:00Z');
    expect((await course(a, { client_id: a.t.client.id }))[0]).toMatchObject({ actual: 8, expected_to_date: 10, status: 'at risk' });
  });

  it("reads days in the organization's timezone", async () => {
    const a = await studioTenant(env);
    expect((await a.t.admin('PATCH', `/admin/v1/orgs/${a.t.org.id}`, { timezone: 'Pacific/Auckland' })).status).toBe(200);
    setNow('2026-03-03T12:00:00Z'); // Wednesday 4 March 01:00 in Auckland: Mon 2 and Tue 3 completed
    await agree(a, a.t.client.id, { kind: 'new_prospects_per_workday', target: 1, start: '2026-03-02' });
    // 2026-03-01T12:00Z is already Monday 2 March in Auckland; 2026-03-01T10:00Z is still Sunday the 1st.
    await addPoolLeads(env, a.t, [{ createdAt: new Date('2026-03-01T12:00:00Z') }, { createdAt: new Date('2026-03-01T10:00:00Z') }]);
    expect((await course(a))[0]).toMatchObject({ actual: 1, expected_to_date: 2, status: 'off track' });
  });

  it('counts prospects who replied to the client’s campaigns this month, once each, without absence notices', async () => {
    const a = await studioTenant(env);
    setNow('2026-02-20T10:00:00Z');
    const early = await a.t.reply({ from_email: 'early@prospect.com' });
    setNow('2026-03-11T12:00:00Z'); // 31 a month in March = 1 a day; 10 days completed
    const agreement = await agree(a, a.t.client.id, { kind: 'replies_per_month', target: 31, start: '2026-03-01' });
    const other = await a.t.addCampaign(null, 'Unlinked');
    for (let i = 0; i < 7; i++) await a.t.reply({ from_email: `p${i}@prospect.com`, received_at: `2026-03-0${i + 2}T09:00:00Z` });
    await a.t.reply({ from_email: 'p0@prospect.com', received_at: '2026-03-10T09:00:00Z' }); // the same prospect again
    await a.t.reply({ from_email: 'early@prospect.com', received_at: '2026-03-04T09:00:00Z' }); // replied in February first
    await a.t.reply({ from_email: 'away@prospect.com', body: 'I am out of office until Monday with limited access to email.', received_at: '2026-03-05T09:00:00Z' });
    await a.t.reply({ campaign_id: other.id, from_email: 'elsewhere@prospect.com', received_at: '2026-03-05T09:00:00Z' });
    expect(early.leadId).toBeTruthy();
    let entry = (await course(a))[0];
    expect(entry).toMatchObject({ agreement_id: agreement.id, actual: 7, expected_to_date: 10, status: 'off track' });
    await a.t.reply({ from_email: 'p8@prospect.com', received_at: '2026-03-11T08:00:00Z' }); // today's count too
    entry = (await course(a))[0];
    expect(entry).toMatchObject({ actual: 8, status: 'at risk' });
  });

  it('counts booked meetings: the admin route (one per lead) and leads the CRM moved to a meeting stage', async () => {
    const a = await studioTenant(env);
    setNow('2026-03-16T12:00:00Z'); // 31 a month → 15 expected; 4 a month → 1.94
    const agreement = await agree(a, a.t.client.id, { kind: 'meetings_per_month', target: 4, start: '2026-03-01' });
    const one = await a.t.reply({ from_email: 'm1@prospect.com', received_at: '2026-03-10T09:00:00Z' });
    const two = await a.t.reply({ from_email: 'm2@prospect.com', received_at: '2026-03-11T09:00:00Z' });
    const first = await a.t.admin('POST', `/admin/v1/leads/${one.leadId}/meeting`, { reply_id: one.reply.id, meeting_at: '2026-03-20T14:00:00+01:00' });
    expect(first.status, first.text).toBe(201);
    expect(first.json.meeting).toMatchObject({ lead_id: one.leadId, client_id: a.t.client.id, reply_id: one.reply.id, booked_at: expect.stringMatching(/^2026-03-16T12:00/), meeting_at: '2026-03-20T13:00:00.000Z' });
    // A repeat answers the recorded meeting and writes nothing.
    const again = await a.t.admin('POST', `/admin/v1/leads/${one.leadId}/meeting`, { booked_at: '2026-03-02T09:00:00Z' });
    expect(again.status).toBe(200);
    expect(again.json.meeting).toEqual(first.json.meeting);
    expect((await auditOf(env, a.t)).filter((e) => e.action === 'meeting.booked').map((e) => e.actor)).toEqual(['admin']);
    expect((await course(a))[0]).toMatchObject({ agreement_id: agreement.id, actual: 1, expected_to_date: 1.94, status: 'off track' });
    // Refusals: a future booking, a reply of another lead, an unknown lead, a lead of a campaign without a client.
    expect((await a.t.admin('POST', `/admin/v1/leads/${two.leadId}/meeting`, { booked_at: '2026-04-01T09:00:00Z' })).json.error.code).toBe('validation_error');
    const wrongReply = await a.t.admin('POST', `/admin/v1/leads/${two.leadId}/meeting`, { reply_id: one.reply.id });
    expect([wrongReply.status, wrongReply.json.error.message]).toEqual([400, 'reply_id: not a reply of this lead']);
    expect((await a.t.admin('POST', `/admin/v1/leads/00000000-0000-4000-8000-000000000000/meeting`, {})).status).toBe(404);
    const unlinked = await a.t.addCampaign(null, 'Unlinked');
    const loose = await a.t.reply({ campaign_id: unlinked.id, from_email: 'loose@prospect.com' });
    expect((await a.t.admin('POST', `/admin/v1/leads/${loose.leadId}/meeting`, {})).json.error.code).toBe('conflict');
    // Booked with a date earlier this month: counts in March.
    expect((await a.t.admin('POST', `/admin/v1/leads/${two.leadId}/meeting`, { booked_at: '2026-03-12T09:00:00Z' })).status).toBe(201);
    expect((await course(a))[0]).toMatchObject({ actual: 2, status: 'on track' });
  });

  it('counts a lead the CRM API moved to discovery (or later) once, unless a meeting row exists for it', async () => {
    const a = await studioTenant(env);
    expect((await a.t.admin('PATCH', `/admin/v1/orgs/${a.t.org.id}`, { features: { crm: true, agency_tools: true, studio: true } })).status).toBe(200);
    setNow('2026-03-16T12:00:00Z');
    await agree(a, a.t.client.id, { kind: 'meetings_per_month', target: 4, start: '2026-03-01' });
    const one = await a.t.reply({ from_email: 'c1@prospect.com', received_at: '2026-03-10T09:00:00Z' });
    const two = await a.t.reply({ from_email: 'c2@prospect.com', received_at: '2026-03-10T09:00:00Z' });
    const crmKey = await a.t.addKey({ name: 'crm', scopes: ['crm.read', 'crm.write'], client_id: a.t.client.id });
    const crm = async (leadId: string, phase: string) => {
      const r = await a.t.call('PATCH', `/v1/crm/leads/${leadId}`, { key: crmKey, body: { phase } });
      expect(r.status, r.text).toBe(200);
    };
    await crm(one.leadId, 'contacted');
    expect((await course(a))[0].actual).toBe(0);
    await crm(one.leadId, 'discovery');
    await crm(one.leadId, 'proposal');
    expect((await course(a))[0].actual).toBe(1);
    // The same lead marked by a person too: still one.
    await a.t.admin('POST', `/admin/v1/leads/${one.leadId}/meeting`, {});
    await crm(two.leadId, 'won');
    expect((await course(a))[0]).toMatchObject({ actual: 2, status: 'on track' });
  });

  it('shows a custom agreement as not started with no figures, and an agreement before its start as not started', async () => {
    const a = await studioTenant(env);
    setNow('2026-03-16T12:00:00Z');
    const custom = await agree(a, a.t.client.id, { kind: 'custom', label: 'Case studies', target: 2, start: '2026-01-01' });
    const later = await agree(a, a.t.client.id, { kind: 'replies_per_month', target: 20, start: '2026-04-01' });
    const all = await course(a);
    expect(all.find((x) => x.agreement_id === custom.id)).toMatchObject({ kind: 'custom', actual: null, expected_to_date: null, status: 'not started' });
    expect(all.find((x) => x.agreement_id === later.id)).toMatchObject({ actual: 0, expected_to_date: 0, status: 'not started' });
  });

  it("keeps organizations apart: another organization's client is not_found and its data never counts", async () => {
    const a = await studioTenant(env);
    const b = await studioTenant(env);
    setNow('2026-03-06T12:00:00Z');
    await agree(a, a.t.client.id, { kind: 'new_prospects_per_workday', target: 1, start: '2026-03-02' });
    await agree(b, b.t.client.id, { kind: 'new_prospects_per_workday', target: 1, start: '2026-03-02' });
    await addPoolLeads(env, b.t, leadsAt(['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05']));
    expect((await course(a)).map((x) => [x.client_id, x.actual])).toEqual([[a.t.client.id, 0]]);
    expect((await course(b)).map((x) => [x.client_id, x.actual])).toEqual([[b.t.client.id, 4]]);
    const r = await a.rest('GET', `/v1/agency/course?client_id=${b.t.client.id}`);
    expect([r.status, r.json.error.code]).toEqual([404, 'not_found']);
    expect((await a.tool('get_course', { client_id: b.t.client.id })).text.startsWith('not_found')).toBe(true);
  });
});
