// Fault injection: a database failing in the middle of a write, a Redis that cannot be reached, a sending
// provider that times out. Each must end in a clear 5xx envelope (503/502) with nothing half-written.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leads } from '../../schema';
import { createUpstashLimits } from '../../lib/limits/upstash';
import { createNodeApp } from '../../scripts/node_server';
import { startTestEnv, TIER, type TestEnv } from '../helpers/harness';
import { newTenant, request, randomIp } from '../helpers/tenant';
import { keyAt, outbox, startReceiver, trail } from './send_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

/** Makes statements matching `pattern` fail inside transactions the way a dropped connection does. */
function failStatementsMatching(pattern: RegExp) {
  const pg = (env.services.database as unknown as { pg: { transaction: Function } }).pg;
  const original = pg.transaction.bind(pg);
  pg.transaction = (fn: (tx: any) => Promise<unknown>) =>
    original((tx: any) => {
      const query = tx.query.bind(tx);
      tx.query = (text: string, ...rest: unknown[]) => {
        if (pattern.test(text)) throw Object.assign(new Error('Connection terminated unexpectedly'), { code: '57P01' });
        return query(text, ...rest);
      };
      return fn(tx);
    });
  return () => {
    pg.transaction = original;
  };
}

describe.skipIf(TIER !== 'embedded')('database failing mid-request', () => {
  it('answers 503 and leaves neither the change nor its decision nor its event behind', async () => {
    const t = await newTenant(env);
    const { reply, leadId } = await t.reply({ body: 'Who is this?' });
    const restore = failStatementsMatching(/insert into "events"/i);
    try {
      const r = await t.call('PATCH', `/v1/leads/${reply.id}`, { body: { classification: 'hot' } });
      expect(r.status).toBe(503);
      expect(r.json.error.code).toBe('service_unavailable');
      expect(r.text).not.toContain('Connection terminated');
    } finally {
      restore();
    }
    const [lead] = await env.services.db.select().from(leads).where(eq(leads.id, leadId));
    expect(lead.classification).not.toBe('hot');
    expect(await trail(t, reply.id)).toEqual([]);
    // With the database back, the same request goes through.
    expect((await t.call('PATCH', `/v1/leads/${reply.id}`, { body: { classification: 'hot' } })).json.updated).toBe(true);
  });

  it('rolls a send back whole when the database fails after the outbox write', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply({ body: 'Yes, send me details.' });
    const key = await keyAt(t, 2);
    const restore = failStatementsMatching(/insert into "thread_messages"/i);
    try {
      const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'Here are the details.' } });
      expect(r.status).toBe(503);
    } finally {
      restore();
    }
    expect(await outbox(t, reply.id)).toEqual([]);
    const again = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'Here are the details.' } });
    expect(again.status).toBe(200);
    expect(await outbox(t, reply.id)).toHaveLength(1);
  });
});

describe('Redis (Upstash) unreachable', () => {
  it('lets reads through (request limits fail open) and refuses sends with 503 (send limits fail closed)', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply({ body: 'Sure, tell me more.' });
    const key = await keyAt(t, 2);
    const dead = createUpstashLimits({ url: 'http://127.0.0.1:1', token: 'unused' });
    const services = { ...env.services, limits: dead };
    const app = createNodeApp(services as never);
    const call = (method: string, path: string, key: string, body?: unknown) =>
      request({ ...env, app } as TestEnv, method, path, { key, body, ip: randomIp() });

    const read = await call('GET', '/v1/leads', t.key);
    expect(read.status).toBe(200);
    expect(read.headers.get('x-ratelimit-limit')).toBeNull();

    const send = await call('POST', `/v1/replies/${reply.id}/send`, key, { body: 'Happy to.' });
    expect(send.status).toBe(503);
    expect(send.json.error.code).toBe('service_unavailable');
    expect(await outbox(t, reply.id)).toEqual([]);
    const replyNow = await t.call('GET', `/v1/replies/${reply.id}`);
    expect(replyNow.json.thread.filter((m: any) => m.role === 'outbound')).toEqual([]);
  });
});

describe('sending provider timing out', () => {
  it('answers 502 saying it may have been delivered, marks nothing sent, keeps the cooldown; a retry after it sends exactly once', async () => {
    const t = await newTenant(env);
    const receiver = await startReceiver(200, 11_000);
    try {
      const set = await t.admin('PUT', `/admin/v1/orgs/${t.org.id}/sending-provider`, { kind: 'http', url: receiver.url });
      expect(set.status).toBe(200);
      const { reply } = await t.reply({ body: 'Interested, send info.' });
      const key = await keyAt(t, 2);
      const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'Info attached.' } });
      expect(r.status).toBe(502);
      expect(r.json.error.code).toBe('provider_error');
      expect(r.json.error.message).toContain('timeout');
      expect(r.json.error.message).toContain('it may have been delivered');
      const after = await t.call('GET', `/v1/replies/${reply.id}`);
      expect(after.json.thread.filter((m: any) => m.role === 'outbound')).toEqual([]);

      receiver.setDelay(0);
      // The timed-out request may have reached the prospect: the lead's cooldown stands, so an instant retry waits.
      const tooSoon = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'Info attached.' } });
      expect(tooSoon.status).toBe(429);
      expect(tooSoon.json.error.code).toBe('lead_recently_contacted');
      expect(receiver.hits.length).toBe(1);
      // Past the cooldown (the embedded tier steps its clock; Upstash's window is real time, so that tier stops here).
      if (TIER === 'integration') return;
      env.clock.advance(15 * 60_000 + 1000);
      const retry = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'Info attached.' } });
      expect(retry.status).toBe(200);
      const third = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'Info attached.' } });
      expect(third.status).toBe(409);
      // Two requests reached the provider: the timed-out one and the retry that succeeded; one was answered 2xx.
      expect(receiver.hits.length).toBe(2);
    } finally {
      await receiver.close();
    }
  }, 40_000);
});
