// The limits port: request rates, send limits, cooldowns, version stamps. Upstash Redis in production,
// an in-process twin for the embedded defaults (never used on Workers, where it would limit nothing).
export type LimitCheck = {
  /** Which limit (namespace of the counter): 'ip', 'key', 'send', 'crm_write'. */
  name: string;
  /** Who is counted: an IP address, a key id. */
  id: string;
  limit: number;
  windowSec: number;
  /** How many hits this check counts (default 1): a bridge request of 40 rows counts 40 against rows per minute. */
  weight?: number;
};

export type LimitResult = {
  success: boolean;
  limit: number;
  remaining: number;
  /** Unix milliseconds when the window resets. */
  reset: number;
};

export interface Limits {
  readonly kind: 'memory' | 'upstash';
  /** Counts one hit against every check at once: one round trip to the store for all of them. */
  check(checks: LimitCheck[]): Promise<LimitResult[]>;
  /**
   * `check`, and in the same round trip the current value of a version stamp ("0" until first bumped). The
   * request path reads the calling organization's stamp this way, so noticing an admin change costs no trip.
   */
  checkAndReadStamp(checks: LimitCheck[], stamp: string): Promise<{ results: LimitResult[]; stamp: string }>;
  /** Moves a version stamp on: every later read returns a value no earlier read returned. */
  bumpStamp(stamp: string): Promise<void>;
  /** Takes the cooldown `key` for `ttlSec` if nobody holds it; otherwise says how long is left. */
  claimCooldown(key: string, ttlSec: number): Promise<{ ok: true } | { ok: false; retryAfterSec: number }>;
  /** Gives a cooldown back (a send that failed at the provider was not a contact). */
  releaseCooldown(key: string): Promise<void>;
}

export type Clock = { now(): Date };
export const systemClock: Clock = { now: () => new Date() };
