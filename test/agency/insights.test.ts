// The insight tools (get_inbox_summary, get_client_performance, list_followups) through REST and through the MCP
// SDK client: numbers computed from real ingested replies, sends and follow-ups, tenant isolation, validation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { mcpClient, toolCaller } from '../helpers/mcp';
import { newTenant, type Tenant } from '../helpers/tenant';
import { plan, runDue } from '../api/followups_helpers';

const TOOLS = ['get_inbox_summary', 'get_client_performance', 'list_followups'];

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const BODIES = {
  hot: 'Sounds good, can we schedule a call next week?',
  hot2: 'Yes! Let us book a demo on Tuesday at 10.',
  warm: 'Maybe later this year, not a priority right now.',
  no: 'We already have a vendor for this, thanks.',
  ooo: 'I am out of the office until Monday with limited access to email.',
};

async function agency() {
  const t = await newTenant(env, { features: { agency_tools: true } });
  const key = await t.addKey({ name: 'assistant', kind: 'agency', scopes: [] });
  const mcp = await mcpClient(env, key, { ip: t.ip });
  // Listing first makes the SDK client check every result against the tool's published outputSchema.
  const listed = await mcp.listTools();
  expect(listed.tools.map((x) => x.name)).toEqual(expect.arrayContaining(TOOLS));
  const rest = (path: string) => t.call('GET', path, { key });
  const tool = toolCaller(mcp);
  return { t, key, mcp, rest, tool };
}

type Stored = { id: string; leadId: string; classification: string; receivedAt: number };

/** Ingests a reply received `ago` ms before `base` into a campaign; what it stored is what the numbers count. */
async function reply(t: Tenant, campaignId: string, body: string, base: Date, ago: number): Promise<Stored> {
  const r = await t.reply({ campaign_id: campaignId, body, received_at: new Date(base.getTime() - ago).toISOString() });
  return { id: r.reply.id, leadId: r.leadId, classification: r.reply.classification, receivedAt: Date.parse(r.reply.received_at) };
}

const countBy = (list: Stored[], c: string) => list.filter((r) => r.classification === c).length;
const byClassification = (list: Stored[]) => ({
  hot: countBy(list, 'hot'),
  warm: countBy(list, 'warm'),
  cold: countBy(list, 'cold'),
  not_interested: countBy(list, 'not_interested'),
  ooo: countBy(list, 'ooo'),
  unclassified: 0,
});
const rate4 = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : 0);
const received = (list: Stored[]) => {
  const positive = countBy(list, 'hot') + countBy(list, 'warm');
  return { total: list.length, leads: new Set(list.map((r) => r.leadId)).size, by_classification: byClassification(list), positive, positive_rate: rate4(positive, list.length) };
};

async function send(t: Tenant, replyId: string, level: 0 | 2) {
  const key = await t.addKey({ name: `level ${level}`, autonomy_level: level });
  const r = await t.call('POST', `/v1/replies/${replyId}/send`, { key, body: { body: 'Happy to talk Tuesday.' } });
  expect(r.status, r.text).toBe(level === 2 ? 200 : 202);
}

const qs = (o: Record<string, string>) => new URLSearchParams(o).toString();

describe('get_inbox_summary', () => {
  it('counts the period’s replies and sends and what waits now, for the organization and for one client', async () => {
    const a = await agency();
    const base = env.clock.now();
    const clientB = await a.t.addClient('Client B');
    const campaignB = await a.t.addCampaign(clientB.id, 'Campaign B');
    const A = a.t.campaign.id;
    const fresh = [
      await reply(a.t, A, BODIES.hot, base, HOUR),
      await reply(a.t, A, BODIES.warm, base, 2 * DAY),
      await reply(a.t, A, BODIES.no, base, 3 * DAY),
      await reply(a.t, A, BODIES.ooo, base, DAY),
    ];
    const queued = await reply(a.t, A, BODIES.hot2, base, 2 * HOUR);
    const answered = await reply(a.t, A, BODIES.hot, base, 3 * HOUR);
    const old = await reply(a.t, A, BODIES.hot2, base, 10 * DAY);
    const ofB = await reply(a.t, campaignB.id, BODIES.hot, base, HOUR);
    expect(fresh.map((r) => r.classification)).toEqual(['hot', 'warm', 'not_interested', 'ooo']);
    await send(a.t, queued.id, 0);
    await send(a.t, answered.id, 2);

    const period = { from: new Date(base.getTime() - 7 * DAY).toISOString(), to: new Date(base.getTime() + HOUR).toISOString() };
    const r = await a.rest(`/v1/agency/inbox-summary?${qs(period)}`);
    expect(r.status, r.text).toBe(200);
    const unansweredAll = [...fresh, old, ofB];
    expect(r.json).toEqual({
      client_id: null,
      period,
      received: received([...fresh, queued, answered, ofB]),
      sends: { total: 1, answers: 1, followups: 0 },
      waiting: {
        unanswered: unansweredAll.length,
        in_review: 1,
        hot_unanswered: countBy(unansweredAll, 'hot'),
        oldest_unanswered_received_at: new Date(old.receivedAt).toISOString(),
      },
      followups: { planned: 0, in_review: 0, next_due_at: null },
    });
    expect((await a.tool('get_inbox_summary', period)).json).toEqual(r.json);

    const onlyB = await a.rest(`/v1/agency/inbox-summary?${qs({ ...period, client_id: clientB.id })}`);
    expect(onlyB.json).toMatchObject({
      client_id: clientB.id,
      received: received([ofB]),
      sends: { total: 0, answers: 0, followups: 0 },
      waiting: { unanswered: 1, in_review: 0, hot_unanswered: countBy([ofB], 'hot'), oldest_unanswered_received_at: new Date(ofB.receivedAt).toISOString() },
    });
    const onlyA = await a.tool('get_inbox_summary', { ...period, client_id: a.t.client.id });
    expect(onlyA.json.received.total).toBe(6);
    expect(onlyA.json.sends.total).toBe(1);
    expect(onlyA.json.waiting).toMatchObject({ unanswered: 5, in_review: 1 });
    await a.mcp.close();
  });

  it('defaults to the last 7 days and never counts another organization', async () => {
    const a = await agency();
    const stranger = await newTenant(env, { features: { agency_tools: true } });
    const base = env.clock.now();
    await reply(a.t, a.t.campaign.id, BODIES.hot, base, 6 * DAY);
    await reply(a.t, a.t.campaign.id, BODIES.warm, base, 8 * DAY);
    await reply(stranger, stranger.campaign.id, BODIES.hot, base, HOUR);
    const r = await a.rest('/v1/agency/inbox-summary');
    expect(r.status).toBe(200);
    expect(Date.parse(r.json.period.to) - Date.parse(r.json.period.from)).toBe(7 * DAY);
    expect(r.json.received.total).toBe(1);
    expect(r.json.waiting.unanswered).toBe(2);

    const theirs = await a.rest(`/v1/agency/inbox-summary?client_id=${stranger.client.id}`);
    expect(theirs.status).toBe(404);
    expect(theirs.json.error.code).toBe('not_found');
    const theirsTool = await a.tool('get_inbox_summary', { client_id: stranger.client.id });
    expect(theirsTool.isError).toBe(true);
    expect(theirsTool.json).toEqual(theirs.json);
    await a.mcp.close();
  });

  it('names the argument that fails validation', async () => {
    const a = await agency();
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ from: 'last week' }, /^from: /],
      [{ client_id: '42' }, /^client_id: /],
      [{ from: '2025-03-10', to: '2025-03-01' }, /^to: /],
      [{ from: '2025-03-01T10:00:00' }, /^from: .*offset/],
      [{ from: '2024-01-01', to: '2025-06-01' }, /^to: .*366 days/],
    ];
    for (const [args, message] of cases) {
      const r = await a.rest(`/v1/agency/inbox-summary?${qs(args)}`);
      expect(r.status, JSON.stringify(args)).toBe(400);
      expect(r.json.error).toMatchObject({ code: 'validation_error', message: expect.stringMatching(message) });
      const m = await a.tool('get_inbox_summary', args);
      expect(m.text).toMatch(/^validation_error: /);
      expect(m.json).toEqual(r.json);
    }
    const future = await a.rest(`/v1/agency/inbox-summary?from=${new Date(env.clock.now().getTime() + DAY).toISOString()}`);
    expect(future.json.error.message).toMatch(/^from: /);
    await a.mcp.close();
  });
});

describe('get_client_performance', () => {
  it("computes a client's replies, sends and campaigns from the stored rows", async () => {
    const a = await agency();
    const base = env.clock.now();
    const A1 = a.t.campaign.id;
    const A2 = await a.t.addCampaign(a.t.client.id, 'Campaign A2');
    const clientB = await a.t.addClient('Client B');
    const B = await a.t.addCampaign(clientB.id, 'Campaign B');
    const inA1 = [await reply(a.t, A1, BODIES.hot, base, DAY), await reply(a.t, A1, BODIES.warm, base, 2 * DAY)];
    const outside = await reply(a.t, A1, BODIES.no, base, 40 * DAY);
    const inA2 = [await reply(a.t, A2.id, BODIES.hot2, base, 5 * DAY), await reply(a.t, A2.id, BODIES.ooo, base, 6 * DAY)];
    await reply(a.t, B.id, BODIES.hot, base, DAY);
    await send(a.t, inA2[0].id, 2);
    // A follow-up on an unanswered reply: its send answers the thread and counts as a follow-up.
    await plan(a.t, inA1[1].id, { now: env.clock.now(), dueInMs: HOUR });
    await runDue(env, 2 * HOUR);

    const period = { from: new Date(base.getTime() - 30 * DAY).toISOString(), to: new Date(base.getTime() + DAY).toISOString() };
    const r = await a.rest(`/v1/agency/clients/${a.t.client.id}/performance?${qs(period)}`);
    expect(r.status, r.text).toBe(200);
    const positive = (list: Stored[]) => countBy(list, 'hot') + countBy(list, 'warm');
    expect(r.json).toEqual({
      client: { id: a.t.client.id, name: 'Client A' },
      period,
      replies: received([...inA1, ...inA2]),
      sends: { total: 2, answers: 1, followups: 1 },
      campaigns: [
        {
          id: A1,
          name: 'Campaign A',
          status: 'active',
          provider: null,
          provider_campaign_id: null,
          lifetime: { sent: 200, opened: 80, replied: 3, open_rate: 0.4, reply_rate: 0.015, stats_last_synced_at: expect.any(String) },
          period: { replies: 2, positive: positive(inA1), sends: 1 },
        },
        {
          id: A2.id,
          name: 'Campaign A2',
          status: 'active',
          provider: null,
          provider_campaign_id: null,
          lifetime: { sent: 100, opened: 10, replied: 2, open_rate: 0.1, reply_rate: 0.02, stats_last_synced_at: expect.any(String) },
          period: { replies: 2, positive: positive(inA2), sends: 1 },
        },
      ],
    });
    expect(outside.classification).toBe('not_interested');
    expect((await a.tool('get_client_performance', { client_id: a.t.client.id, ...period })).json).toEqual(r.json);

    // The default period is the last 30 days up to now: the 40-day-old reply stays out.
    const dflt = await a.rest(`/v1/agency/clients/${a.t.client.id}/performance`);
    expect(dflt.json.replies.total).toBe(4);
    expect(Date.parse(dflt.json.period.to) - Date.parse(dflt.json.period.from)).toBe(30 * DAY);
    await a.mcp.close();
  });

  it('reads dates as whole UTC days, `to` included', async () => {
    const a = await agency();
    const day = env.clock.now().toISOString().slice(0, 10);
    const midday = new Date(`${day}T12:00:00Z`);
    await reply(a.t, a.t.campaign.id, BODIES.hot, midday, 0);
    await reply(a.t, a.t.campaign.id, BODIES.hot, midday, DAY);
    const r = await a.rest(`/v1/agency/clients/${a.t.client.id}/performance?from=${day}&to=${day}`);
    expect(r.status, r.text).toBe(200);
    expect(r.json.period).toEqual({ from: `${day}T00:00:00.000Z`, to: new Date(Date.parse(`${day}T00:00:00Z`) + DAY).toISOString() });
    expect(r.json.replies.total).toBe(1);
    await a.mcp.close();
  });

  it("refuses another organization's client and bad periods, validation first", async () => {
    const a = await agency();
    const stranger = await newTenant(env, { features: { agency_tools: true } });
    const theirs = await a.rest(`/v1/agency/clients/${stranger.client.id}/performance`);
    expect(theirs.status).toBe(404);
    expect(theirs.json.error.code).toBe('not_found');
    const theirsTool = await a.tool('get_client_performance', { client_id: stranger.client.id });
    expect(theirsTool.json).toEqual(theirs.json);

    // Gate order: a bad argument is a validation_error even for another organization's client.
    const backwards = await a.rest(`/v1/agency/clients/${stranger.client.id}/performance?from=2025-05-03&to=2025-05-01`);
    expect(backwards.status).toBe(400);
    expect(backwards.json.error.message).toMatch(/^to: /);
    const tooLong = await a.tool('get_client_performance', { client_id: a.t.client.id, from: '2024-01-01T00:00:00Z', to: '2025-01-02T00:00:00Z' });
    expect(tooLong.text).toMatch(/^validation_error: to: .*366 days/);
    const badDate = await a.tool('get_client_performance', { client_id: a.t.client.id, to: '2025-02-30' });
    expect(badDate.text).toMatch(/^validation_error: to/);
    const badId = await a.rest('/v1/agency/clients/not-a-uuid/performance');
    expect(badId.json.error.message).toMatch(/^client_id: /);
    // A year of 366 days is allowed.
    const leap = await a.rest(`/v1/agency/clients/${a.t.client.id}/performance?from=2024-01-01&to=2024-12-31`);
    expect(leap.status, leap.text).toBe(200);
    await a.mcp.close();
  });
});

describe('list_followups', () => {
  it('lists the agenda: open ones soonest due first, then finished ones; filters by client and status; pages', async () => {
    const a = await agency();
    const stranger = await newTenant(env, { features: { agency_tools: true } });
    const base = env.clock.now();
    const clientB = await a.t.addClient('Client B');
    const campaignB = await a.t.addCampaign(clientB.id, 'Campaign B');
    const [r1, r2, r3] = [await reply(a.t, a.t.campaign.id, BODIES.hot, base, HOUR), await reply(a.t, a.t.campaign.id, BODIES.warm, base, HOUR), await reply(a.t, a.t.campaign.id, BODIES.ooo, base, HOUR)];
    const rB = await reply(a.t, campaignB.id, BODIES.hot2, base, HOUR);
    const f1 = await plan(a.t, r1.id, { now: base, dueInMs: 30 * HOUR });
    const f2 = await plan(a.t, r2.id, { now: base, dueInMs: 10 * HOUR });
    const f3 = await plan(a.t, r3.id, { now: base, dueInMs: 20 * HOUR });
    const fB = await plan(a.t, rB.id, { now: base, dueInMs: 5 * HOUR });
    const cancelled = await a.t.admin('PATCH', `/admin/v1/orgs/${a.t.org.id}/followups/${f3.id}`, { status: 'cancelled' });
    expect(cancelled.status).toBe(200);
    const other = await reply(stranger, stranger.campaign.id, BODIES.hot, base, HOUR);
    await plan(stranger, other.id, { now: base, dueInMs: HOUR });

    const r = await a.rest('/v1/agency/followups');
    expect(r.status, r.text).toBe(200);
    expect(r.json.followups.map((f: any) => f.id)).toEqual([fB.id, f2.id, f1.id, f3.id]);
    expect(r.json.next_offset).toBeNull();
    expect(r.json.followups[0]).toMatchObject({ status: 'planned', lead_id: rB.leadId, reply_id: rB.id, campaign_id: campaignB.id, client_id: clientB.id, lead_email: expect.stringMatching(/@prospect\.com$/) });
    expect(r.json.followups[3]).toMatchObject({ status: 'cancelled', client_id: a.t.client.id });
    expect((await a.tool('list_followups')).json).toEqual(r.json);

    const ofA = await a.rest(`/v1/agency/followups?client_id=${a.t.client.id}`);
    expect(ofA.json.followups.map((f: any) => f.id)).toEqual([f2.id, f1.id, f3.id]);
    const onlyCancelled = await a.tool('list_followups', { status: 'cancelled' });
    expect(onlyCancelled.json.followups.map((f: any) => f.id)).toEqual([f3.id]);

    const first = await a.rest('/v1/agency/followups?limit=3');
    expect(first.json.followups.map((f: any) => f.id)).toEqual([fB.id, f2.id, f1.id]);
    expect(first.json.next_offset).toBe(3);
    const rest = await a.tool('list_followups', { limit: 3, offset: first.json.next_offset });
    expect(rest.json).toMatchObject({ followups: [{ id: f3.id }], next_offset: null });
    await a.mcp.close();
  });

  it("refuses another organization's client and names bad arguments", async () => {
    const a = await agency();
    const stranger = await newTenant(env, { features: { agency_tools: true } });
    const theirs = await a.rest(`/v1/agency/followups?client_id=${stranger.client.id}`);
    expect(theirs.status).toBe(404);
    expect(theirs.json.error.code).toBe('not_found');
    expect((await a.tool('list_followups', { client_id: stranger.client.id })).json).toEqual(theirs.json);
    const badStatus = await a.rest('/v1/agency/followups?status=due');
    expect(badStatus.json.error.message).toMatch(/^status: /);
    const badLimit = await a.tool('list_followups', { limit: 0 });
    expect(badLimit.text).toMatch(/^validation_error: limit/);
    await a.mcp.close();
  });
});
