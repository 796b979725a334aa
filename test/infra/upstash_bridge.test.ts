/**
 * Proves the production Upstash clients (@upstash/redis, @upstash/ratelimit) work unchanged against local Redis
 * through the REST bridge, and pins down how many HTTP round trips a rate-limit check costs (Workers bill and
 * wait per subrequest). Skips without TEST_REDIS_URL. Keys carry a per-run prefix so parallel runs don't clash.
 */
import { Ratelimit } from '@upstash/ratelimit';
import { Redis } from '@upstash/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpstashBridge, type UpstashBridge } from './upstash_bridge.js';

const REDIS_URL = process.env.TEST_REDIS_URL;

describe.skipIf(!REDIS_URL)('upstash_bridge: @upstash/redis + @upstash/ratelimit → local Redis', () => {
  const prefix = `infra:${process.pid}:${Date.now().toString(36)}:${Math.random().toString(36).slice(2, 8)}`;
  let bridge: UpstashBridge;
  let redis: Redis; // plain: one command per HTTP request, so request counts are exact
  let piped: Redis; // auto-pipelining, the client's default

  const client = (enableAutoPipelining: boolean, token = bridge.token) =>
    new Redis({ url: bridge.url, token, enableAutoPipelining, enableTelemetry: false, retry: false });
  const limiter = (r: Redis, l: ReturnType<typeof Ratelimit.fixedWindow>, name: string) =>
    // ephemeralCache off so every call reaches Redis; timeout off so a slow bridge fails instead of allowing.
    new Ratelimit({ redis: r, limiter: l, prefix: `${prefix}:rl:${name}`, ephemeralCache: false, timeout: 0 });

  /** Fixed windows must not roll over mid-test: wait out the last 2 s of a window. */
  async function awayFromWindowEdge(windowMs: number) {
    const left = windowMs - (Date.now() % windowMs);
    if (left < 2000) await new Promise((r) => setTimeout(r, left + 50));
  }

  beforeAll(async () => {
    bridge = await startUpstashBridge({ redisUrl: REDIS_URL!, token: `tok-${prefix}` });
    redis = client(false);
    piped = client(true);
  });

  afterAll(async () => {
    if (redis) {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
    }
    await bridge?.close();
  });

  it('get / set / incr / hash round-trip, with base64 response encoding (the client default)', async () => {
    const text = 'héllo ✓ 🚀 OK =='; // non-ASCII and base64-looking characters must survive decoding
    expect(await redis.set(`${prefix}:s`, text)).toBe('OK');
    expect(await redis.get(`${prefix}:s`)).toBe(text);
    expect(await redis.get(`${prefix}:missing`)).toBeNull();
    expect(await redis.incr(`${prefix}:n`)).toBe(1);
    expect(await redis.incrby(`${prefix}:n`, 41)).toBe(42);
    await redis.set(`${prefix}:obj`, { a: 1, b: ['x'] }); // client JSON-serialises objects
    expect(await redis.get(`${prefix}:obj`)).toEqual({ a: 1, b: ['x'] });
    await redis.hset(`${prefix}:h`, { f1: 'v1', f2: 2 });
    expect(await redis.hgetall(`${prefix}:h`)).toEqual({ f1: 'v1', f2: 2 });
  });

  it('really base64-encodes results when asked, and only then', async () => {
    const call = (encoding?: string) =>
      fetch(bridge.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${bridge.token}`, ...(encoding ? { 'upstash-encoding': encoding } : {}) },
        body: JSON.stringify(['GET', `${prefix}:s`]),
      }).then((r) => r.json());
    await redis.set(`${prefix}:s`, 'héllo');
    expect(await call('base64')).toEqual({ result: Buffer.from('héllo').toString('base64') });
    expect(await call()).toEqual({ result: 'héllo' });
  });

  it('pipeline and multi/exec', async () => {
    const p = redis.pipeline();
    p.set(`${prefix}:p`, 10).incr(`${prefix}:p`).get(`${prefix}:p`);
    expect(await p.exec()).toEqual(['OK', 11, 11]);

    const m = redis.multi();
    m.set(`${prefix}:m`, 'a').append(`${prefix}:m`, 'b').get(`${prefix}:m`);
    expect(await m.exec()).toEqual(['OK', 2, 'ab']);
  });

  it('reports Redis errors as errors (single command → 400 { error })', async () => {
    await redis.set(`${prefix}:notnum`, 'x');
    await expect(redis.incr(`${prefix}:notnum`)).rejects.toThrow(/not an integer/);
  });

  it('rejects a wrong token', async () => {
    await expect(client(false, 'wrong').get(`${prefix}:s`)).rejects.toThrow(/Unauthorized/);
  });

  for (const [name, make] of [
    ['slidingWindow', () => Ratelimit.slidingWindow(5, '60 s')],
    ['fixedWindow', () => Ratelimit.fixedWindow(5, '60 s')],
  ] as const) {
    it(`${name}: exactly 5 successes out of 8 sequential calls`, async () => {
      await awayFromWindowEdge(60_000);
      const rl = limiter(redis, make(), name);
      const results = [];
      for (let i = 0; i < 8; i++) results.push(await rl.limit('user-1'));
      expect(results.map((r) => r.success)).toEqual([true, true, true, true, true, false, false, false]);
      expect(results.map((r) => r.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0, 0]);
      expect(results.every((r) => r.reason === undefined)).toBe(true); // not a timeout/cache answer
    });
  }

  it('EVALSHA hits after the first EVAL: one HTTP request per limit() once warm', async () => {
    await awayFromWindowEdge(60_000);
    const rl = limiter(redis, Ratelimit.fixedWindow(100, '60 s'), 'sha');
    await rl.limit('warm'); // may cost 2 requests: EVALSHA → NOSCRIPT, then EVAL
    bridge.resetStats();
    for (let i = 0; i < 5; i++) await rl.limit('warm');
    expect(bridge.stats.requests).toBe(5);
  });

  it('auto-pipelining: two concurrent limit() calls share one bridge HTTP request once the script is cached', async () => {
    await awayFromWindowEdge(60_000);
    // A fresh bridge has no SHA mapping yet, so the first round shows the cold cost too.
    const fresh = await startUpstashBridge({ redisUrl: REDIS_URL!, token: bridge.token });
    try {
      const r = new Redis({ url: fresh.url, token: fresh.token, enableAutoPipelining: true, enableTelemetry: false });
      const rl = limiter(r, Ratelimit.slidingWindow(10, '60 s'), 'auto');
      await Promise.all([rl.limit('cold-a'), rl.limit('cold-b')]);
      const cold = { ...fresh.stats }; // EVALSHA×2 → NOSCRIPT×2 in one pipeline, then EVAL×2 in another
      fresh.resetStats();
      const [a, b] = await Promise.all([rl.limit('warm-a'), rl.limit('warm-b')]);
      expect([a.success, b.success]).toEqual([true, true]);
      expect(cold).toEqual({ requests: 2, commands: 4 });
      expect(fresh.stats).toEqual({ requests: 1, commands: 2 });
    } finally {
      await fresh.close();
    }
  });
});
