// One lead through the providers: each in order until one finds; a provider that fails or asks to slow down does
// not stop the waterfall, the next one is asked. Every call is returned for the finder_calls log.
import type { EmailFinder, FindInput, FindOutcome } from '../ports/finder/port';

export type CallLog = {
  provider: string;
  operation: 'find' | 'verify';
  email: string | null;
  outcome: string;
  costMicros: number;
  simulated: boolean;
};

export type Search = {
  email: string | null;
  provider: string | null;
  /** found, or the most telling miss: rate_limited and error say "try again later", not_found says "nobody has it". */
  outcome: FindOutcome;
  retryAfterSec: number | null;
  calls: CallLog[];
};

export async function searchProviders(finder: EmailFinder, input: FindInput): Promise<Search> {
  const calls: CallLog[] = [];
  let limited = false;
  let failed = false;
  let retryAfterSec: number | null = null;
  for (const p of finder.providers) {
    let r;
    try {
      r = await p.find(input);
    } catch (err) {
      // An adapter bug must not lose the round's other leads: it counts as this provider failing.
      r = { email: null, cost_micros: 0, outcome: 'error' as const, detail: err instanceof Error ? err.message : String(err) };
    }
    calls.push({ provider: p.name, operation: 'find', email: r.email, outcome: r.outcome, costMicros: r.cost_micros, simulated: r.simulated === true });
    if (r.outcome === 'found' && r.email) return { email: r.email.toLowerCase(), provider: p.name, outcome: 'found', retryAfterSec: null, calls };
    if (r.outcome === 'rate_limited') {
      limited = true;
      if (r.retry_after_sec !== undefined) retryAfterSec = Math.max(retryAfterSec ?? 0, r.retry_after_sec);
    }
    if (r.outcome === 'error') failed = true;
  }
  return { email: null, provider: null, outcome: limited ? 'rate_limited' : failed ? 'error' : 'not_found', retryAfterSec, calls };
}

/** Runs `fn` over `items` with at most `width` in flight (providers limit requests per second). */
export async function inBatches<T, R>(items: readonly T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return out;
}
