// Idempotency-Key on send and approve: a retry with the same key returns the first answer and sends nothing new;
// the same key with a different request is 409 idempotency_conflict.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';
import { keyAt, outbox, trail } from './send_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

describe('Idempotency-Key', () => {
  it('send: a retry replays the 200 (not 409 already_sent) and sends nothing new', async () => {
    const t = await newTenant(env);
    const key = await keyAt(t, 2);
    const { reply } = await t.reply();
    const call = () => t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'Once only' }, headers: { 'Idempotency-Key': 'send-1' } });
    const first = await call();
    const retry = await call();
    expect(first.status).toBe(200);
    expect(retry.status).toBe(200);
    expect(retry.json).toEqual(first.json);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await outbox(t)).toHaveLength(1);
    expect((await trail(t, reply.id)).map((d) => d.action)).toEqual(['reply.sent']);
    // Without the key the retry is an honest second send: refused as already sent.
    const bare = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'Once only' } });
    expect(bare.status).toBe(409);
  });

  it('send: a replayed 202 does not replace the draft again', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    const call = () => t.call('POST', `/v1/replies/${reply.id}/send`, { body: { body: 'draft' }, headers: { 'Idempotency-Key': 'q-1' } });
    const first = await call();
    const retry = await call();
    expect(first.status).toBe(202);
    expect(retry.status).toBe(202);
    expect(retry.json).toEqual(first.json); // replaced: false both times
    expect((await trail(t, reply.id)).map((d) => d.action)).toEqual(['reply.queued']);
  });

  it('same key, different request (body or reply): 409 idempotency_conflict, nothing sent', async () => {
    const t = await newTenant(env);
    const key = await keyAt(t, 2);
    const a = (await t.reply()).reply;
    const b = (await t.reply()).reply;
    const headers = { 'Idempotency-Key': 'k-1' };
    expect((await t.call('POST', `/v1/replies/${a.id}/send`, { key, body: { body: 'one' }, headers })).status).toBe(200);
    for (const [id, body] of [[a.id, 'two'], [b.id, 'one']] as const) {
      const r = await t.call('POST', `/v1/replies/${id}/send`, { key, body: { body }, headers });
      expect(r.status).toBe(409);
      expect(r.json.error.code).toBe('idempotency_conflict');
    }
    expect((await outbox(t)).map((m) => m.reply_id)).toEqual([a.id]);
  });

  it('approve: a retry replays the approval and sends nothing new', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    await t.call('POST', `/v1/replies/${reply.id}/send`, { body: { body: 'draft' } });
    const call = () => t.call('POST', `/v1/replies/${reply.id}/approve`, { body: { approver: 'Maria' }, headers: { 'Idempotency-Key': 'approve-1' } });
    const first = await call();
    const retry = await call();
    expect(first.status).toBe(200);
    expect(retry.json).toEqual(first.json);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await outbox(t)).toHaveLength(1);
    const other = await t.call('POST', `/v1/replies/${reply.id}/approve`, { body: { approver: 'Someone else' }, headers: { 'Idempotency-Key': 'approve-1' } });
    expect(other.status).toBe(409);
    expect(other.json.error.code).toBe('idempotency_conflict');
  });

  it('a refused send that may succeed later (429, 502) is not stored: the retry runs again', async () => {
    const t = await newTenant(env);
    const first = (await t.reply({ from_email: 'kim@prospect.io' })).reply;
    const second = (await t.reply({ from_email: 'kim@prospect.io' })).reply;
    await t.call('POST', `/v1/replies/${first.id}/send`, { key: await keyAt(t, 2), body: { body: 'first' } });
    const key = await keyAt(t, 2);
    const call = () => t.call('POST', `/v1/replies/${second.id}/send`, { key, body: { body: 'second' }, headers: { 'Idempotency-Key': 'cool-1' } });
    expect((await call()).status).toBe(429);
    const again = await call();
    expect(again.status).toBe(429);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect((await trail(t, second.id)).map((d) => d.action)).toEqual(['send.blocked', 'send.blocked']);
  });

  it('a malformed key is 400', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { body: { body: 'x' }, headers: { 'Idempotency-Key': 'x'.repeat(300) } });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('validation_error');
  });
});
