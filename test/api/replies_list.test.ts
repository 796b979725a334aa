// GET /v1/replies: every reply can be found (leads.read): ids, lead, campaign and status, newest first, filtered by
// status, since and campaign_id, offset paging, the tenant's (and a locked key's client's) replies only. The same
// path with status=queued (alias in_review) stays the review queue of governed sending (replies.approve).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant, type Tenant } from '../helpers/tenant';
import { keyAt } from './send_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

/** Four replies of campaign A, oldest first, one for each status, and one of a campaign of another client. */
async function story(t: Tenant) {
  const unanswered = await t.reply({ from_email: 'una@prospect.com', from_name: 'Una', received_at: '2026-11-01T09:00:00Z', body: 'Tell me more.\n\nOn Mon, Nov 2, 2026 at 9:00 AM Sam <sam@agency.com> wrote:\n> Hi Una' });
  const sent = await t.reply({ from_email: 'sid@prospect.com', received_at: '2026-11-02T09:00:00Z' });
  const skipped = await t.reply({ from_email: 'ski@prospect.com', received_at: '2026-11-03T09:00:00Z' });
  const queued = await t.reply({ from_email: 'que@prospect.com', received_at: '2026-11-04T09:00:00Z' });
  const clientB = await t.addClient('Client B');
  const campaignB = await t.addCampaign(clientB.id, 'Campaign B');
  const other = await t.reply({ campaign_id: campaignB.id, from_email: 'bea@prospect.com', received_at: '2026-11-05T09:00:00Z' });

  const sender = await keyAt(t, 2);
  expect((await t.call('POST', `/v1/replies/${sent.reply.id}/send`, { key: sender, body: { body: 'Here you go.' } })).status).toBe(200);
  expect((await t.call('POST', `/v1/replies/${skipped.reply.id}/skip`, { body: { reason: 'answered by phone' } })).status).toBe(200);
  expect((await t.call('POST', `/v1/replies/${queued.reply.id}/send`, { body: { body: 'Draft for review.' } })).status).toBe(202);
  return { unanswered, sent, skipped, queued, other, clientB, campaignB };
}

const ids = (r: { json: any }) => r.json.replies.map((x: any) => x.id);

describe('GET /v1/replies (leads.read)', () => {
  it('lists every reply newest first: the Reply plus id, lead_id, status and campaign_id, with the paging fields', async () => {
    const t = await newTenant(env);
    const s = await story(t);
    const r = await t.call('GET', '/v1/replies');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ count: 5, total_count: 5, limit: 50, offset: 0, has_more: false });
    expect(ids(r)).toEqual([s.other, s.queued, s.skipped, s.sent, s.unanswered].map((x) => x.reply.id));
    expect(r.json.replies.map((x: any) => x.status)).toEqual(['unanswered', 'queued', 'skipped', 'sent', 'unanswered']);
    expect(r.json.replies[4]).toEqual({
      id: s.unanswered.reply.id,
      lead_id: s.unanswered.leadId,
      campaign_id: t.campaign.id,
      status: 'unanswered',
      from_email: 'una@prospect.com',
      from_name: 'Una',
      campaign_name: 'Campaign A',
      body: 'Tell me more.', // the prospect's own text, as in the review queue
      classification: s.unanswered.reply.classification,
      received_at: '2026-11-01T09:00:00.000Z',
    });
    expect(r.json.replies[0]).toMatchObject({ campaign_id: s.campaignB.id, campaign_name: 'Campaign B' });
    // The full message is one call away.
    const full = await t.call('GET', `/v1/replies/${s.unanswered.reply.id}`);
    expect(full.json.reply.body).toContain('Hi Una');
  });

  it('filters by status, since and campaign_id, and pages with limit and offset', async () => {
    const t = await newTenant(env);
    const s = await story(t);
    for (const [status, expected] of [
      ['unanswered', [s.other, s.unanswered]],
      ['sent', [s.sent]],
      ['skipped', [s.skipped]],
    ] as const) {
      const r = await t.call('GET', `/v1/replies?status=${status}`);
      expect(r.status, status).toBe(200);
      expect(ids(r), status).toEqual(expected.map((x) => x.reply.id));
      expect(r.json.replies.every((x: any) => x.status === status)).toBe(true);
    }
    expect(ids(await t.call('GET', '/v1/replies?since=2026-11-03T09:00:00Z'))).toEqual([s.other, s.queued].map((x) => x.reply.id));
    expect(ids(await t.call('GET', `/v1/replies?since=2026-11-01T00:00:00%2B01:00&campaign_id=${t.campaign.id}&status=unanswered`))).toEqual([s.unanswered.reply.id]);
    expect(ids(await t.call('GET', `/v1/replies?campaign_id=${s.campaignB.id}`))).toEqual([s.other.reply.id]);

    const page = await t.call('GET', '/v1/replies?limit=2&offset=2');
    expect(page.json).toMatchObject({ count: 2, total_count: 5, limit: 2, offset: 2, has_more: true });
    expect(ids(page)).toEqual([s.skipped, s.sent].map((x) => x.reply.id));
    const past = await t.call('GET', '/v1/replies?offset=50');
    expect(past.json).toMatchObject({ replies: [], count: 0, total_count: 5, has_more: false });
  });

  it('refuses unknown statuses and filters, bad values and limits out of range with 400 naming the parameter', async () => {
    const t = await newTenant(env);
    for (const [q, field] of [
      ['status=answered', 'status'],
      ['since=yesterday', 'since'],
      ['campaign_id=42', 'campaign_id'],
      ['limit=101', 'limit'],
      ['offset=-1', 'offset'],
      ['status=queued&since=2026-11-01T00:00:00Z', 'since'],
      ['status=in_review&campaign_id=00000000-0000-4000-8000-000000000000', 'campaign_id'],
    ]) {
      const r = await t.call('GET', `/v1/replies?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.json.error.code).toBe('validation_error');
      expect(r.json.error.message, q).toMatch(new RegExp(`^${field}`));
    }
  });

  it("shows a client-locked key its client's replies only, and never another organization's", async () => {
    const t = await newTenant(env);
    const s = await story(t);
    const other = await newTenant(env);
    await other.reply();
    const lockedA = await t.addKey({ client_id: t.client.id, scopes: ['leads.read'] });
    const lockedB = await t.addKey({ client_id: s.clientB.id, scopes: ['leads.read'] });
    expect(ids(await t.call('GET', '/v1/replies', { key: lockedA }))).toEqual([s.queued, s.skipped, s.sent, s.unanswered].map((x) => x.reply.id));
    const b = await t.call('GET', '/v1/replies', { key: lockedB });
    expect(b.json).toMatchObject({ total_count: 1 });
    expect(ids(b)).toEqual([s.other.reply.id]);
    // Another client's campaign as a filter is simply empty for a locked key.
    expect((await t.call('GET', `/v1/replies?campaign_id=${t.campaign.id}`, { key: lockedB })).json).toMatchObject({ replies: [], total_count: 0 });
    const theirs = await other.call('GET', '/v1/replies');
    expect(theirs.json.total_count).toBe(1);
    expect(ids(theirs)).not.toContain(s.unanswered.reply.id);
  });
});

describe('the same path for the review queue', () => {
  it('status=queued (alias in_review) keeps the queue shape; the scope follows the status', async () => {
    const t = await newTenant(env);
    const s = await story(t);
    const reader = await t.addKey({ scopes: ['leads.read'] });
    const approver = await t.addKey({ scopes: ['replies.approve'] });

    const list = await t.call('GET', '/v1/replies?status=sent', { key: reader });
    expect([list.status, ids(list)]).toEqual([200, [s.sent.reply.id]]);
    for (const q of ['status=queued', 'status=in_review']) {
      const refused = await t.call('GET', `/v1/replies?${q}`, { key: reader });
      expect([refused.status, refused.json.error.code], q).toEqual([403, 'insufficient_scope']);
      expect(refused.json.error.message).toContain('replies.approve');
      const queue = await t.call('GET', `/v1/replies?${q}`, { key: approver });
      expect(queue.status, q).toBe(200);
      expect(queue.json).toMatchObject({ count: 1, total_count: 1, replies: [{ reply_id: s.queued.reply.id, body: 'Draft for review.', reply: { id: s.queued.reply.id } }] });
      expect(queue.json.replies[0]).not.toHaveProperty('status');
    }
    for (const q of ['', '?status=unanswered', '?status=sent&limit=1']) {
      const refused = await t.call('GET', `/v1/replies${q}`, { key: approver });
      expect([refused.status, refused.json.error.code], q).toEqual([403, 'insufficient_scope']);
      expect(refused.json.error.message).toContain('leads.read');
    }
  });

  it('declares both scopes in the OpenAPI document, as alternatives', async () => {
    const t = await newTenant(env);
    const doc = (await t.call('GET', '/openapi.json', { key: null })).json;
    const op = doc.paths['/v1/replies'].get;
    expect(op.security).toEqual([{ ServiceKey: ['leads.read'] }, { ServiceKey: ['replies.approve'] }]);
    expect(op.parameters.map((p: any) => p.name).sort()).toEqual(['campaign_id', 'client_id', 'limit', 'offset', 'since', 'status']);
  });
});
