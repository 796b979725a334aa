import type { Clock, LimitCheck, LimitResult, Limits } from './port';

// In-process limits for `npm run dev` and the embedded test tier. Fixed windows keyed by window start,
// driven by the injected clock so tests can step time instead of sleeping.
export function createMemoryLimits(clock: Clock): Limits {
  const windows = new Map<string, { count: number; reset: number }>();
  const cooldowns = new Map<string, number>();

  let lastSweep = 0;
  // Expired windows are dropped at most once a second: sweeping on every hit would cost O(entries) per request.
  const sweep = (now: number) => {
    if (now - lastSweep < 1000) return;
    lastSweep = now;
    for (const [k, w] of windows) if (w.reset <= now) windows.delete(k);
    for (const [k, until] of cooldowns) if (until <= now) cooldowns.delete(k);
  };

  const hit = (c: LimitCheck, now: number): LimitResult => {
    const size = c.windowSec * 1000;
    const start = Math.floor(now / size) * size;
    const key = `${c.name}:${c.id}:${c.limit}:${start}`;
    const w = windows.get(key) ?? { count: 0, reset: start + size };
    w.count += c.weight ?? 1;
    windows.set(key, w);
    return { success: w.count <= c.limit, limit: c.limit, remaining: Math.max(0, c.limit - w.count), reset: w.reset };
  };

  const stamps = new Map<string, number>();
  const count = (checks: LimitCheck[]) => {
    const now = clock.now().getTime();
    sweep(now);
    return checks.map((c) => hit(c, now));
  };

  return {
    kind: 'memory',
    async check(checks) {
      return count(checks);
    },
    async checkAndReadStamp(checks, stamp) {
      return { results: count(checks), stamp: String(stamps.get(stamp) ?? 0) };
    },
    async bumpStamp(stamp) {
      stamps.set(stamp, (stamps.get(stamp) ?? 0) + 1);
    },
    async claimCooldown(key, ttlSec) {
      const now = clock.now().getTime();
      const until = cooldowns.get(key);
      if (until !== undefined && until > now) return { ok: false, retryAfterSec: Math.ceil((until - now) / 1000) };
      cooldowns.set(key, now + ttlSec * 1000);
      return { ok: true };
    },
    async releaseCooldown(key) {
      cooldowns.delete(key);
    },
  };
}
