// The review queue listing, approve/reject/skip outside their table rows (documented 409s), validation, scopes
// and tenant isolation of the governed-send routes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';
import { keyAt, outbox, trail } from './send_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

describe('GET /v1/replies?status=queued', () => {
  it('lists pending drafts oldest first with the original reply context and its stripped body (alias in_review)', async () => {
    const t = await newTenant(env);
    const quoted = 'Could you send pricing?\n\nOn Tue, Mar 3, 2026 at 10:12, Sam <sam@agency.com> wrote:\n> Hi Jo,\n> we help teams like yours';
    const a = (await t.reply({ from_email: 'jo@acme.io', from_name: 'Jo', body: quoted })).reply;
    const b = (await t.reply()).reply;
    await t.call('POST', `/v1/replies/${a.id}/send`, { body: { body: 'Pricing attached.' } });
    env.clock.advance(1000);
    await t.call('POST', `/v1/replies/${b.id}/send`, { body: { body: 'Thanks!' } });
    await t.reply(); // unanswered: not in the queue
    const r = await t.call('GET', '/v1/replies?status=queued');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ count: 2, total_count: 2, limit: 50, offset: 0, has_more: false });
    expect(r.json.replies[0]).toEqual({
      reply_id: a.id,
      suggestion_id: expect.stringMatching(/^sug_/),
      body: 'Pricing attached.',
      queued_at: expect.any(String),
      reason: 'no_active_autonomy_grant',
      queued_by: 'owner key',
      reply: { id: a.id, from_email: 'jo@acme.io', from_name: 'Jo', campaign_name: 'Campaign A', body: 'Could you send pricing?', classification: a.classification, received_at: a.received_at },
    });
    expect(r.json.replies[1].reply_id).toBe(b.id);
    const alias = await t.call('GET', '/v1/replies?status=in_review');
    expect(alias.json.replies.map((x: any) => x.reply_id)).toEqual([a.id, b.id]);
    const page = await t.call('GET', '/v1/replies?status=queued&limit=1&offset=1');
    expect(page.json).toMatchObject({ count: 1, total_count: 2, has_more: false, replies: [{ reply_id: b.id }] });
  });

  it('400 for another status or a limit out of range', async () => {
    const t = await newTenant(env);
    for (const q of ['status=answered', 'status=queued&limit=101']) {
      const r = await t.call('GET', `/v1/replies?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.json.error.code).toBe('validation_error');
    }
  });

  it("shows a client-locked key only its client's drafts, and never another organization's", async () => {
    const t = await newTenant(env);
    const other = await newTenant(env);
    const clientB = await t.addClient('Client B');
    const campaignB = await t.addCampaign(clientB.id);
    const a = (await t.reply()).reply;
    const b = (await t.reply({ campaign_id: campaignB.id })).reply;
    const o = (await other.reply()).reply;
    for (const [tenant, id] of [[t, a.id], [t, b.id], [other, o.id]] as const) {
      expect((await tenant.call('POST', `/v1/replies/${id}/send`, { body: { body: 'draft' } })).status).toBe(202);
    }
    const lockedToB = await t.addKey({ client_id: clientB.id });
    expect((await t.call('GET', '/v1/replies?status=queued', { key: lockedToB })).json.replies.map((x: any) => x.reply_id)).toEqual([b.id]);
    expect((await t.call('GET', '/v1/replies?status=queued')).json.replies.map((x: any) => x.reply_id).sort()).toEqual([a.id, b.id].sort());
    // The locked key cannot act on the other client's reply either: it does not exist for it.
    const r = await t.call('POST', `/v1/replies/${a.id}/approve`, { key: lockedToB, body: { approver: 'x' } });
    expect(r.status).toBe(404);
    expect(r.json.error.code).toBe('not_found');
  });
});

describe('approve, reject and skip outside their table rows', () => {
  it('no draft: approve and reject answer 409 no_pending_draft and change nothing', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    for (const [op, body] of [['approve', { approver: 'M' }], ['reject', { approver: 'M', reason: 'r' }]] as const) {
      const r = await t.call('POST', `/v1/replies/${reply.id}/${op}`, { body });
      expect(r.status, op).toBe(409);
      expect(r.json.error.code).toBe('no_pending_draft');
    }
    expect(await outbox(t)).toEqual([]);
    expect(await trail(t, reply.id)).toEqual([]);
  });

  it('a sent reply: approve, reject and skip answer 409 already_sent', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    await t.call('POST', `/v1/replies/${reply.id}/send`, { key: await keyAt(t, 2), body: { body: 'sent' } });
    for (const [op, body] of [['approve', { approver: 'M' }], ['reject', { approver: 'M', reason: 'r' }], ['skip', { reason: 'r' }]] as const) {
      const r = await t.call('POST', `/v1/replies/${reply.id}/${op}`, { body });
      expect(r.status, op).toBe(409);
      expect(r.json.error.code).toBe('already_sent');
    }
    expect(await outbox(t)).toHaveLength(1);
  });

  it('a queued reply: skip answers 409 draft_pending (the reviewer decides); the draft stays', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    await t.call('POST', `/v1/replies/${reply.id}/send`, { body: { body: 'draft' } });
    const r = await t.call('POST', `/v1/replies/${reply.id}/skip`, { body: { reason: 'nah' } });
    expect(r.status).toBe(409);
    expect(r.json.error.code).toBe('draft_pending');
    expect((await t.call('GET', '/v1/replies?status=queued')).json.replies).toHaveLength(1);
  });
});

describe('validation', () => {
  it('names the field: missing or blank body, unknown fields, missing approver/reason, malformed id', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    const cases: Array<[string, string, unknown, RegExp]> = [
      ['send', reply.id, {}, /^body/],
      ['send', reply.id, { body: '   ' }, /^body/],
      ['send', reply.id, { body: 'x', edited: 'yes' }, /^edited/],
      ['send', reply.id, { body: 'x', to: 'someone@else.com' }, /unknown field/],
      ['approve', reply.id, {}, /^approver/],
      ['reject', reply.id, { approver: 'M' }, /^reason/],
      ['skip', reply.id, {}, /^reason/],
      ['send', 'not-a-uuid', { body: 'x' }, /^id/],
    ];
    for (const [op, id, body, message] of cases) {
      const r = await t.call('POST', `/v1/replies/${id}/${op}`, { body });
      expect(r.status, `${op} ${JSON.stringify(body)}`).toBe(400);
      expect(r.json.error.code).toBe('validation_error');
      expect(r.json.error.message).toMatch(message);
    }
    expect(await trail(t, reply.id)).toEqual([]);
  });

  it('404 not_found for an unknown reply and for another organization\'s reply', async () => {
    const t = await newTenant(env);
    const other = await newTenant(env);
    const { reply } = await other.reply();
    for (const id of ['00000000-0000-4000-8000-000000000000', reply.id]) {
      for (const [op, body] of [['send', { body: 'x' }], ['approve', { approver: 'M' }], ['reject', { approver: 'M', reason: 'r' }], ['skip', { reason: 'r' }]] as const) {
        const r = await t.call('POST', `/v1/replies/${id}/${op}`, { key: await keyAt(t, 3), body });
        expect(r.status, `${op} ${id}`).toBe(404);
        expect(r.json.error.code).toBe('not_found');
      }
    }
    expect(await trail(other, reply.id)).toEqual([]);
  });
});

describe('scopes (core §5)', () => {
  it('send and skip need replies.send; the queue, approve and reject need replies.approve', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    const sender = await t.addKey({ scopes: ['replies.send', 'leads.read'] });
    const approver = await t.addKey({ scopes: ['replies.approve'] });
    const calls: Array<[string, string, string, unknown, number]> = [
      [approver, 'POST', `/v1/replies/${reply.id}/send`, { body: 'x' }, 403],
      [approver, 'POST', `/v1/replies/${reply.id}/skip`, { reason: 'r' }, 403],
      [sender, 'GET', '/v1/replies?status=queued', undefined, 403],
      [sender, 'POST', `/v1/replies/${reply.id}/approve`, { approver: 'M' }, 403],
      [sender, 'POST', `/v1/replies/${reply.id}/reject`, { approver: 'M', reason: 'r' }, 403],
      [sender, 'POST', `/v1/replies/${reply.id}/send`, { body: 'x' }, 202],
      [approver, 'GET', '/v1/replies?status=queued', undefined, 200],
      [approver, 'POST', `/v1/replies/${reply.id}/approve`, { approver: 'M' }, 200],
    ];
    for (const [key, method, path, body, status] of calls) {
      const r = await t.call(method, path, { key, body });
      expect(r.status, `${method} ${path}`).toBe(status);
      if (status === 403) expect(r.json.error.code).toBe('insufficient_scope');
    }
  });

  it('a read-only key cannot send even with the scope in its list', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    const key = await t.addKey({ scopes: ['replies.send'], read_only: true, autonomy_level: 3 });
    const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'x' } });
    expect(r.status).toBe(403);
    expect(await outbox(t)).toEqual([]);
  });
});
