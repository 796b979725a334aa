// Credits of POST /v1/suggest: 1 per suggestion, per key and UTC day; /v1/me agrees; 429 with Retry-After until
// 00:00 UTC; no credit for a failed or timed-out model call (504 ai_error); an Idempotency-Key retry spends once;
// holds of dead requests are given back.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { secondsUntilUtcMidnight, utcDay } from '../../lib/credits/balance';
import { refundCredit, reserveCredit } from '../../lib/credits/meter';
import { aiSuggestions } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant, type Tenant } from '../helpers/tenant';
import { creditsLeft, keyWith, usedToday, MEETING_REPLY, steer, storedSuggestions, suggestedEvents } from './ai_helpers';

let env: TestEnv;
let steered: ReturnType<typeof steer>;
beforeAll(async () => {
  env = await startTestEnv();
  steered = steer(env);
});
afterAll(() => env.close());
beforeEach(() => {
  steered.set({ kind: 'offline' });
  env.services.aiTimeLimitMs = undefined;
});

const suggest = (t: Tenant, key = t.key, body: Record<string, unknown> = { reply_received: MEETING_REPLY }, headers?: Record<string, string>) =>
  t.call('POST', '/v1/suggest', { key, body, headers });


describe('credits', () => {
  it('each suggestion costs 1 credit; the response and /v1/me agree; feedback costs none', async () => {
    const t = await newTenant(env);
    const remaining = [];
    for (let i = 0; i < 3; i++) remaining.push((await suggest(t)).json.credits_remaining);
    expect(remaining).toEqual([99, 98, 97]);
    expect(await creditsLeft(t)).toBe(97);
    expect((await t.call('POST', '/v1/suggest/feedback', { body: { accepted: true } })).status).toBe(200);
    expect(await creditsLeft(t)).toBe(97);
  });

  it('over the daily limit: 429 daily_credit_limit_exceeded with Retry-After until 00:00 UTC; other keys unaffected', async () => {
    const t = await newTenant(env);
    const k = await keyWith(env, t, 10, 8);
    expect((await suggest(t, k.secret)).json.credits_remaining).toBe(1);
    expect((await suggest(t, k.secret)).json.credits_remaining).toBe(0);
    expect(await creditsLeft(t, k.secret)).toBe(0);
    const calls = steered.state.calls;
    const before = secondsUntilUtcMidnight(env.clock.now());
    const r = await suggest(t, k.secret);
    const after = secondsUntilUtcMidnight(env.clock.now());
    expect(r.status).toBe(429);
    expect(r.json.error.code).toBe('daily_credit_limit_exceeded');
    expect(r.json.error.message).toMatch(/10 credits/);
    const retryAfter = Number(r.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(after);
    expect(retryAfter).toBeLessThanOrEqual(before);
    expect(await usedToday(env, k.id)).toBe(10);
    expect(steered.state.calls).toBe(calls);
    // The refusal reached no model and stored nothing; the org's other key still has its own credits.
    expect((await storedSuggestions(env, t.org.id)).filter((s) => s.keyId === k.id)).toHaveLength(2);
    expect((await suggest(t)).json.credits_remaining).toBe(99);
  });

  it('20 concurrent suggests with 5 credits left: exactly 5 suggestions and 15 refusals', async () => {
    const t = await newTenant(env);
    const k = await keyWith(env, t, 10, 5);
    steered.set({ kind: 'slow', ms: 50 });
    const results = await Promise.all(Array.from({ length: 20 }, () => suggest(t, k.secret)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    expect(results.filter((r) => r.status === 429 && r.json.error.code === 'daily_credit_limit_exceeded')).toHaveLength(15);
    expect(await usedToday(env, k.id)).toBe(10);
    expect(await creditsLeft(t, k.secret)).toBe(0);
    expect(await suggestedEvents(env, t.org.id)).toHaveLength(5);
  });

  it('a failing model answers 504 ai_error, spends nothing and leaks no provider detail', async () => {
    const t = await newTenant(env);
    steered.set({ kind: 'fail' });
    const r = await suggest(t);
    expect(r.status).toBe(504);
    expect(r.json.error.code).toBe('ai_error');
    expect(r.json.error.message).toMatch(/no credit was spent/);
    expect(r.text).not.toContain('sk-secret');
    expect(await creditsLeft(t)).toBe(100);
    expect(await suggestedEvents(env, t.org.id)).toEqual([]);
    expect((await storedSuggestions(env, t.org.id)).map((s) => s.status)).toEqual(['failed']);
  });

  it('a model that does not answer in time is aborted: 504 ai_error, no credit spent', async () => {
    const t = await newTenant(env);
    env.services.aiTimeLimitMs = 300; // the 30 s budget, shortened so the test sees it fire
    steered.set({ kind: 'hang' });
    const aborted = steered.state.aborted;
    const r = await suggest(t);
    expect(r.status).toBe(504);
    expect(r.json.error.code).toBe('ai_error');
    expect(r.json.error.message).toMatch(/30 second/);
    expect(steered.state.aborted).toBe(aborted + 1);
    expect(await creditsLeft(t)).toBe(100);
    expect(await suggestedEvents(env, t.org.id)).toEqual([]);
  });

  it('a refunded last credit can be spent again', async () => {
    const t = await newTenant(env);
    const k = await keyWith(env, t, 10, 9);
    steered.set({ kind: 'fail' });
    expect((await suggest(t, k.secret)).status).toBe(504);
    steered.set({ kind: 'offline' });
    const ok = await suggest(t, k.secret);
    expect(ok.status).toBe(200);
    expect(ok.json.credits_remaining).toBe(0);
    expect((await suggest(t, k.secret)).status).toBe(429);
  });

  it('a refund happens once: a second refund of the same hold changes nothing', async () => {
    const t = await newTenant(env);
    const k = await keyWith(env, t, 10, 3);
    const now = env.clock.now();
    const hold = { id: `sug_test${Date.now()}`, orgId: t.org.id, clientId: null, medium: 'email', replyText: 'hi', leadEmail: null };
    const r = await reserveCredit(env.services.db, { keyId: k.id, dailyCreditLimit: 10 }, hold, now);
    expect(r).toMatchObject({ ok: true, used: 4, remaining: 6 });
    expect(await refundCredit(env.services.db, hold.id, now)).toBe(true);
    expect(await refundCredit(env.services.db, hold.id, now)).toBe(false);
    expect(await usedToday(env, k.id)).toBe(3);
  });

  it('credits held by a request that died are given back once they expire', async () => {
    const t = await newTenant(env);
    const k = await keyWith(env, t, 10, 10);
    const old = new Date(env.clock.now().getTime() - 5 * 60_000);
    await env.services.db.insert(aiSuggestions).values({
      id: `sug_dead${Date.now()}`, orgId: t.org.id, keyId: k.id, status: 'pending', creditDay: utcDay(env.clock.now()), medium: 'email', replyText: 'hi', createdAt: old,
    });
    // A fresh hold (a request still running) is not given back.
    await env.services.db.insert(aiSuggestions).values({
      id: `sug_live${Date.now()}`, orgId: t.org.id, keyId: k.id, status: 'pending', creditDay: utcDay(env.clock.now()), medium: 'email', replyText: 'hi', createdAt: env.clock.now(),
    });
    expect(await creditsLeft(t, k.secret)).toBe(1);
    const r = await suggest(t, k.secret);
    expect(r.status).toBe(200);
    expect(r.json.credits_remaining).toBe(0);
    expect((await suggest(t, k.secret)).status).toBe(429);
    expect((await storedSuggestions(env, t.org.id)).map((s) => s.status).sort()).toEqual(['done', 'expired', 'pending']);
  });
});

describe('an unreachable credit store', () => {
  it('fails closed: 503 service_unavailable and no model call, never a free suggestion', async () => {
    const t = await newTenant(env);
    expect(await creditsLeft(t)).toBe(100); // the key is now in the key cache: auth needs no database
    const real = env.services.db;
    const down = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    env.services.db = new Proxy(real, {
      get: (target, prop, receiver) =>
        ['execute', 'select', 'insert', 'update', 'delete', 'transaction'].includes(String(prop))
          ? () => {
              throw down;
            }
          : Reflect.get(target, prop, receiver),
    });
    const calls = steered.state.calls;
    try {
      const r = await suggest(t);
      expect(r.status).toBe(503);
      expect(r.json.error.code).toBe('service_unavailable');
    } finally {
      env.services.db = real;
    }
    expect(steered.state.calls).toBe(calls);
    expect(await creditsLeft(t)).toBe(100);
  });
});

describe('Idempotency-Key on POST /v1/suggest', () => {
  it('a retry with the same key returns the same suggestion and spends no second credit', async () => {
    const t = await newTenant(env);
    const headers = { 'idempotency-key': 'sugg-1' };
    const first = await suggest(t, t.key, { reply_received: MEETING_REPLY }, headers);
    const again = await suggest(t, t.key, { reply_received: MEETING_REPLY }, headers);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await creditsLeft(t)).toBe(99);
    expect(await suggestedEvents(env, t.org.id)).toHaveLength(1);
    const other = await suggest(t, t.key, { reply_received: 'Something else entirely' }, headers);
    expect(other.status).toBe(409);
    expect(other.json.error.code).toBe('idempotency_conflict');
  });

  it('a 504 is not stored: the retry with the same key runs again and spends once', async () => {
    const t = await newTenant(env);
    const headers = { 'idempotency-key': 'sugg-after-failure' };
    steered.set({ kind: 'fail' });
    expect((await suggest(t, t.key, undefined, headers)).status).toBe(504);
    steered.set({ kind: 'offline' });
    const retry = await suggest(t, t.key, undefined, headers);
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await creditsLeft(t)).toBe(99);
  });
});

// Last in this file: it moves the clock to the next UTC day.
describe('a new UTC day', () => {
  it('resets the credits', async () => {
    const t = await newTenant(env);
    const k = await keyWith(env, t, 10, 10);
    expect((await suggest(t, k.secret)).status).toBe(429);
    env.clock.advance(secondsUntilUtcMidnight(env.clock.now()) * 1000 + 1_000);
    expect(await creditsLeft(t, k.secret)).toBe(10);
    const r = await suggest(t, k.secret);
    expect(r.status).toBe(200);
    expect(r.json.credits_remaining).toBe(9);
  });
});
