import { Ratelimit } from '@upstash/ratelimit';
import { Redis } from '@upstash/redis';
import type { LimitCheck, LimitResult, Limits } from './port';

const READ_STAMP = "return redis.call('GET', KEYS[1])";

// Production limits: @upstash/ratelimit sliding windows, SET NX EX cooldowns and INCR version stamps in Upstash Redis.
// Auto-pipelining batches the checks of one request (key + IP) into a single REST round trip.
export function createUpstashLimits(opts: { url: string; token: string; prefix?: string }): Limits & { redis: Redis } {
  // Two quick retries, not the client's default five with long backoff: when Redis is down, request limits fail
  // open and send limits fail closed, and either should happen in well under a second, not after ~13 s.
  const redis = new Redis({
    url: opts.url,
    token: opts.token,
    enableAutoPipelining: true,
    enableTelemetry: false,
    retry: { retries: 2, backoff: (n) => 50 * 2 ** n },
  });
  const prefix = opts.prefix ?? 'ris';
  const limiters = new Map<string, Ratelimit>();

  const limiter = (name: string, limit: number, windowSec: number) => {
    const id = `${name}:${limit}:${windowSec}`;
    let rl = limiters.get(id);
    if (!rl) {
      rl = new Ratelimit({
        redis,
        limiter: Ratelimit.slidingWindow(limit, `${windowSec} s`),
        prefix: `${prefix}:rl:${name}`,
        analytics: false,
        // No fail-open race against a slow Redis and no per-isolate block cache: counts stay exact.
        timeout: 0,
        ephemeralCache: false,
      });
      limiters.set(id, rl);
    }
    return rl;
  };

  const count = (checks: LimitCheck[]) =>
    checks.map(async (c): Promise<LimitResult> => {
      const r = await limiter(c.name, c.limit, c.windowSec).limit(c.id, c.weight === undefined ? undefined : { rate: c.weight });
      return { success: r.success, limit: r.limit, remaining: Math.max(0, r.remaining), reset: r.reset };
    });
  const stampKey = (stamp: string) => `${prefix}:stamp:${stamp}`;

  return {
    kind: 'upstash',
    redis,
    async check(checks) {
      return Promise.all(count(checks));
    },
    async checkAndReadStamp(checks, stamp) {
      const counted = count(checks);
      // Issued in the same tick as the limiters' scripts, so auto-pipelining sends it in their HTTP request. Not a
      // GET: the client batches read commands in a pipeline of their own, which would be a second round trip.
      const read = redis.eval<[], string | number | null>(READ_STAMP, [stampKey(stamp)], []);
      const [results, value] = await Promise.all([Promise.all(counted), read]);
      return { results, stamp: String(value ?? 0) };
    },
    async bumpStamp(stamp) {
      await redis.incr(stampKey(stamp));
    },
    async claimCooldown(key, ttlSec) {
      const k = `${prefix}:cooldown:${key}`;
      const [set, ttl] = await Promise.all([redis.set(k, '1', { nx: true, ex: ttlSec }), redis.ttl(k)]);
      if (set === 'OK') return { ok: true };
      return { ok: false, retryAfterSec: ttl > 0 ? ttl : ttlSec };
    },
    async releaseCooldown(key) {
      await redis.del(`${prefix}:cooldown:${key}`);
    },
  };
}
