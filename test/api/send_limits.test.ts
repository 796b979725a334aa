// core §8 send limits through the limits port: 5 sends per key per minute (level 2+ sends and approvals) and one
// contact per lead per 15 minutes across keys. Count-based cases run on both tiers (in-process and Upstash);
// the expiry cases step the embedded tier's clock and are skipped where Upstash keeps real time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshLimitWindow, startTestEnv, TIER, type TestEnv } from '../helpers/harness';
import { newTenant, type Tenant } from '../helpers/tenant';
import { keyAt, outbox, trail } from './send_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const send = (t: Tenant, key: string, replyId: string, body = 'Thanks, talk soon') => t.call('POST', `/v1/replies/${replyId}/send`, { key, body: { body } });
const replies = async (t: Tenant, n: number) => Promise.all(Array.from({ length: n }, async () => (await t.reply()).reply.id));

describe('5 sends per key per minute', () => {
  it('the 6th level-2 send is 429 send_rate_limit_exceeded with Retry-After 60, recorded, nothing sent', async () => {
    const t = await newTenant(env);
    const key = await keyAt(t, 2);
    const ids = await replies(t, 6);
    await freshLimitWindow(env);
    for (const id of ids.slice(0, 5)) expect((await send(t, key, id)).status).toBe(200);
    const r = await send(t, key, ids[5]);
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('60');
    expect(r.json.error.code).toBe('send_rate_limit_exceeded');
    expect((await outbox(t)).map((m) => m.reply_id).sort()).toEqual(ids.slice(0, 5).sort());
    const [blocked] = await trail(t, ids[5]);
    expect(blocked).toMatchObject({ action: 'send.blocked', detail: { code: 'send_rate_limit_exceeded', limit: 'send_rate', retry_after: 60, autonomy_level: 2 } });
    // The limit is per key: another key of the organization still sends.
    expect((await send(t, await keyAt(t, 2), ids[5])).status).toBe(200);
  });

  it('approvals count against the approving key; a blocked approval keeps the draft', async () => {
    const t = await newTenant(env);
    const ids = await replies(t, 6);
    for (const id of ids) expect((await send(t, t.key, id)).status).toBe(202);
    const reviewer = await t.addKey({ name: 'reviewer', scopes: ['replies.approve'] });
    await freshLimitWindow(env);
    for (const id of ids.slice(0, 5)) expect((await t.call('POST', `/v1/replies/${id}/approve`, { key: reviewer, body: { approver: 'M' } })).status).toBe(200);
    const r = await t.call('POST', `/v1/replies/${ids[5]}/approve`, { key: reviewer, body: { approver: 'M' } });
    expect(r.status).toBe(429);
    expect(r.json.error.code).toBe('send_rate_limit_exceeded');
    expect((await t.call('GET', '/v1/replies?status=queued')).json.replies.map((x: any) => x.reply_id)).toEqual([ids[5]]);
    expect((await trail(t, ids[5])).at(-1)).toMatchObject({ action: 'send.blocked', actor: 'reviewer', detail: { via: 'approve', limit: 'send_rate' } });
  });

  it('queueing for review (levels 0 and 1) is not a send and is not limited', async () => {
    const t = await newTenant(env);
    const key = await keyAt(t, 1);
    for (const id of await replies(t, 7)) expect((await send(t, key, id)).status).toBe(202);
  });

  it.skipIf(TIER === 'integration')('the window passes: a minute later the key sends again', async () => {
    const t = await newTenant(env);
    const key = await keyAt(t, 2);
    const ids = await replies(t, 6);
    await freshLimitWindow(env);
    for (const id of ids.slice(0, 5)) await send(t, key, id);
    expect((await send(t, key, ids[5])).status).toBe(429);
    env.clock.advance(60_000);
    expect((await send(t, key, ids[5])).status).toBe(200);
  });
});

describe('one contact per lead per 15 minutes, across keys', () => {
  it("a second reply of the same lead, sent by another key, is 429 lead_recently_contacted with Retry-After 900", async () => {
    const t = await newTenant(env);
    const first = (await t.reply({ from_email: 'kim@prospect.io' })).reply;
    const second = (await t.reply({ from_email: 'kim@prospect.io', body: 'One more question: do you integrate with HubSpot?' })).reply;
    expect((await send(t, await keyAt(t, 2), first.id)).status).toBe(200);
    const r = await send(t, await keyAt(t, 3), second.id);
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('900');
    expect(r.json.error).toEqual({ code: 'lead_recently_contacted', message: expect.stringContaining('15 minutes') });
    expect((await trail(t, second.id))[0]).toMatchObject({ action: 'send.blocked', detail: { code: 'lead_recently_contacted', limit: 'lead_cooldown' } });
    expect(await outbox(t)).toHaveLength(1);
    // A different lead is not affected.
    expect((await send(t, await keyAt(t, 2), (await t.reply()).reply.id)).status).toBe(200);
  });

  it('an approval is a contact too', async () => {
    const t = await newTenant(env);
    const first = (await t.reply({ from_email: 'kim@prospect.io' })).reply;
    const second = (await t.reply({ from_email: 'kim@prospect.io' })).reply;
    await send(t, t.key, second.id); // queued
    expect((await send(t, await keyAt(t, 2), first.id)).status).toBe(200);
    const r = await t.call('POST', `/v1/replies/${second.id}/approve`, { body: { approver: 'M' } });
    expect(r.status).toBe(429);
    expect(r.json.error.code).toBe('lead_recently_contacted');
    expect((await t.call('GET', '/v1/replies?status=queued')).json.replies).toHaveLength(1);
  });

  it.skipIf(TIER === 'integration')('the cooldown ends after 15 minutes, not before', async () => {
    const t = await newTenant(env);
    const key = await keyAt(t, 2);
    const first = (await t.reply({ from_email: 'kim@prospect.io' })).reply;
    const second = (await t.reply({ from_email: 'kim@prospect.io' })).reply;
    expect((await send(t, key, first.id)).status).toBe(200);
    env.clock.advance(14 * 60_000);
    const early = await send(t, key, second.id);
    expect(early.status).toBe(429);
    expect(early.json.error.message).toMatch(/in (5\d|60) s/);
    env.clock.advance(60_000 + 1000);
    expect((await send(t, key, second.id)).status).toBe(200);
  });
});
