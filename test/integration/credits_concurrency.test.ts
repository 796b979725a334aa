// Credit spending under real concurrency: the Neon driver (pool of 10) against real PostgreSQL, every request
// through the real Upstash clients for its rate limits. The meter is one conditional upsert per reservation, so
// the count can neither pass the limit nor go below 0, however requests, refunds and retries interleave.
// PGlite has one connection and serialises everything, so these only run on the integration tier.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, TIER, type TestEnv } from '../helpers/harness';
import { newTenant, type Tenant } from '../helpers/tenant';
import { creditsLeft, keyWith, usedToday, MEETING_REPLY, steer, storedSuggestions, suggestedEvents } from '../api/ai_helpers';

let env: TestEnv;
let steered: ReturnType<typeof steer>;
beforeAll(async () => {
  if (TIER !== 'integration') return;
  env = await startTestEnv();
  steered = steer(env);
});
afterAll(async () => {
  await env?.close();
});


/** Reads the counter over and over while `race` runs: the lowest and highest value anyone could have seen. */
async function watchWhile<T>(keyId: string, race: Promise<T>) {
  const seen = { min: Infinity, max: -Infinity };
  let done = false;
  const watcher = (async () => {
    while (!done) {
      const used = await usedToday(env, keyId);
      seen.min = Math.min(seen.min, used);
      seen.max = Math.max(seen.max, used);
    }
  })();
  const result = await race.finally(() => (done = true));
  await watcher;
  return { result, seen };
}

const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

describe.skipIf(TIER !== 'integration')('credit spending under concurrency (real PostgreSQL, Upstash limits)', () => {
  it('runs on the production adapters', () => {
    expect('pg' in env.services.database).toBe(false); // the Neon driver, not PGlite
    if (process.env.TEST_REDIS_URL) expect(env.services.limits.kind).toBe('upstash');
  });

  it('20 concurrent suggests with 5 credits left: exactly 5 suggestions and 15 refusals', async () => {
    const t = await newTenant(env);
    const k = await keyWith(env, t, 10, 5);
    // Each model call takes 200 ms, so all 20 reservations are made while the first holds are still pending.
    steered.set({ kind: 'slow', ms: 200 });
    const { result, seen } = await watchWhile(k.id, Promise.all(Array.from({ length: 20 }, () => t.call('POST', '/v1/suggest', { key: k.secret, body: { reply_received: MEETING_REPLY } }))));
    expect(tally(result.map((r) => r.status))).toEqual({ 200: 5, 429: 15 });
    for (const r of result.filter((x) => x.status === 429)) {
      expect(r.json.error.code).toBe('daily_credit_limit_exceeded');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(result.filter((r) => r.status === 200).map((r) => r.json.credits_remaining).sort()).toEqual([0, 1, 2, 3, 4]);
    expect(seen.min).toBeGreaterThanOrEqual(5);
    expect(seen.max).toBeLessThanOrEqual(10);
    expect(await usedToday(env, k.id)).toBe(10);
    expect(await creditsLeft(t, k.secret)).toBe(0);
    expect(await suggestedEvents(env, t.org.id)).toHaveLength(5);
  });

  it('40 concurrent suggests, half of them failing at the model: refunds race spends, the count stays in 0..10', async () => {
    const t = await newTenant(env);
    const k = await keyWith(env, t, 10);
    steered.set({ kind: 'fail_marked', marker: '[fail]', ms: 100 });
    const calls = Array.from({ length: 40 }, (_, i) =>
      t.call('POST', '/v1/suggest', { key: k.secret, body: { reply_received: `${MEETING_REPLY} ${i % 2 ? '' : '[fail]'}`.trim() } }),
    );
    const { result, seen } = await watchWhile(k.id, Promise.all(calls));
    const ok = result.filter((r) => r.status === 200).length;
    expect(result.every((r) => (r.status === 200) || (r.status === 504 && r.json.error.code === 'ai_error') || (r.status === 429 && r.json.error.code === 'daily_credit_limit_exceeded'))).toBe(true);
    expect(ok).toBeGreaterThan(0);
    expect(ok).toBeLessThanOrEqual(10);
    expect(seen.min).toBeGreaterThanOrEqual(0);
    expect(seen.max).toBeLessThanOrEqual(10);
    // Every failed call gave its credit back: what is spent is exactly what was suggested.
    expect(await usedToday(env, k.id)).toBe(ok);
    expect(await suggestedEvents(env, t.org.id)).toHaveLength(ok);
    const rows = await storedSuggestions(env, t.org.id);
    expect(rows.filter((r) => r.status === 'done')).toHaveLength(ok);
    expect(rows.filter((r) => r.status === 'pending')).toHaveLength(0);
    // And the rest of the day's credits are still there, to the last one.
    steered.set({ kind: 'offline' });
    expect(await creditsLeft(t, k.secret)).toBe(10 - ok);
    for (let i = ok; i < 10; i++) expect((await t.call('POST', '/v1/suggest', { key: k.secret, body: { reply_received: MEETING_REPLY } })).status).toBe(200);
    expect((await t.call('POST', '/v1/suggest', { key: k.secret, body: { reply_received: MEETING_REPLY } })).status).toBe(429);
    expect(await usedToday(env, k.id)).toBe(10);
  });

  it('10 concurrent retries with one Idempotency-Key spend one credit', async () => {
    const t = await newTenant(env);
    steered.set({ kind: 'slow', ms: 200 });
    const headers = { 'idempotency-key': 'same-click' };
    const result = await Promise.all(Array.from({ length: 10 }, () => t.call('POST', '/v1/suggest', { body: { reply_received: MEETING_REPLY }, headers })));
    const ok = result.filter((r) => r.status === 200);
    // The first runs; a retry that arrives while it runs is told so (409), one after it gets the stored answer.
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((r) => r.json.suggestion_id)).size).toBe(1);
    expect(result.every((r) => r.status === 200 || (r.status === 409 && r.json.error.code === 'idempotency_conflict'))).toBe(true);
    expect(await creditsLeft(t)).toBe(99);
    expect(await suggestedEvents(env, t.org.id)).toHaveLength(1);
  });
});
