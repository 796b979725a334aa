// Hunter (https://hunter.io/api-documentation/v2) as the production finder and verifier: GET /email-finder and
// GET /email-verifier under HUNTER_API_URL (default https://api.hunter.io/v2), the key in the documented `api_key`
// query parameter. Answers are mapped onto the port; a failure is an outcome, never an exception, so one lead's
// trouble never stops the round. Field names are Hunter's own so this file can be held against the reference.
import { apiUrl, failedBeforeSending, parseRetryAfter, redact } from '../../providers/request';
import type { EmailFinder, FindInput, FindResult, VerifyResult, VerifyStatus } from './port';

export const HUNTER_TIMEOUT_MS = 15_000;
/**
 * What a call costs us, in millionths of a dollar, at Hunter's list price (about $0.0245 per credit on the
 * Starter plan): an Email Finder request that returns an address is 1 credit, one that returns none is free;
 * a verification is half a credit. Estimates for the finder_calls log, not an invoice.
 */
export const HUNTER_COST_MICROS = { found: 24_500, verify: 12_250 };

type HunterFinderData = { email?: string | null; score?: number | null; accept_all?: boolean | null; verification?: { status?: string | null } | null };
type HunterVerifierData = { status?: string | null; result?: string | null; accept_all?: boolean | null };

type Answer = { status: number | null; json: any; retryAfterSec: number | null; failure?: string };

/** Hunter's verifier `status` (and the deprecated `result`) onto valid / risky / invalid. */
export function verifyStatusOf(data: HunterVerifierData): VerifyStatus | null {
  switch (data.status) {
    case 'valid':
      return 'valid';
    case 'invalid':
    case 'disposable':
      return 'invalid';
    // accept_all: a catch-all server takes any address; webmail and unknown cannot be confirmed either.
    case 'accept_all':
    case 'webmail':
    case 'unknown':
      return 'risky';
  }
  switch (data.result) {
    case 'deliverable':
      return 'valid';
    case 'undeliverable':
      return 'invalid';
    case 'risky':
      return 'risky';
  }
  return null;
}

export function createHunterFinder(opts: { apiKey: string; baseUrl: string; timeoutMs?: number }): EmailFinder {
  const timeoutMs = opts.timeoutMs ?? HUNTER_TIMEOUT_MS;

  async function get(path: string, query: Record<string, string>): Promise<Answer> {
    const url = apiUrl(opts.baseUrl, path, { ...query, api_key: opts.apiKey });
    const signal = AbortSignal.timeout(timeoutMs);
    let res: Response;
    try {
      res = await fetch(url.href, { method: 'GET', headers: { Accept: 'application/json' }, redirect: 'manual', signal });
    } catch (err) {
      const why = signal.aborted ? `timeout after ${timeoutMs} ms` : failedBeforeSending(err) ? 'unreachable' : 'connection lost';
      return { status: null, json: null, retryAfterSec: null, failure: why };
    }
    const text = await res.text().catch(() => '');
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    return { status: res.status, json, retryAfterSec: parseRetryAfter(res.headers.get('retry-after')) };
  }

  /** Hunter's `errors[0].details`, key redacted, for the log. */
  const detailOf = (a: Answer) => {
    const first = Array.isArray(a.json?.errors) ? a.json.errors[0] : null;
    const text = a.failure ?? `HTTP ${a.status}${first?.details ? `: ${String(first.details).slice(0, 160)}` : first?.id ? `: ${first.id}` : ''}`;
    return redact(`hunter ${text}`, opts.apiKey);
  };

  // Hunter documents 403 as its per-second rate limit and 429 as the plan's usage limit: both mean "not now".
  const limited = (a: Answer) => a.status === 403 || a.status === 429;

  return {
    kind: 'hunter',
    providers: [
      {
        name: 'hunter',
        async find(input: FindInput): Promise<FindResult> {
          // Hunter takes first_name + last_name, or full_name, which it splits itself.
          const query: Record<string, string> = { domain: input.domain };
          const first = input.first_name?.trim();
          const last = input.last_name?.trim();
          if (first && last) Object.assign(query, { first_name: first, last_name: last });
          else if (input.full_name?.trim()) query.full_name = input.full_name.trim();
          else return { email: null, cost_micros: 0, outcome: 'not_found', detail: 'no person name to search' };
          const a = await get('/email-finder', query);
          if (limited(a)) return { email: null, cost_micros: 0, outcome: 'rate_limited', ...(a.retryAfterSec !== null && { retry_after_sec: a.retryAfterSec }), detail: detailOf(a) };
          // 404: no address for this person; 451: the person asked Hunter not to process their data.
          if (a.status === 404 || a.status === 451) return { email: null, cost_micros: 0, outcome: 'not_found' };
          if (a.status !== 200 || !a.json || typeof a.json !== 'object') return { email: null, cost_micros: 0, outcome: 'error', detail: detailOf(a) };
          const data: HunterFinderData = a.json.data ?? {};
          const email = typeof data.email === 'string' && data.email.includes('@') ? data.email.trim().toLowerCase() : null;
          return email ? { email, cost_micros: HUNTER_COST_MICROS.found, outcome: 'found' } : { email: null, cost_micros: 0, outcome: 'not_found' };
        },
      },
    ],
    verifier: {
      name: 'hunter',
      async verify(email: string): Promise<VerifyResult> {
        const a = await get('/email-verifier', { email });
        if (limited(a)) return { status: null, cost_micros: 0, outcome: 'rate_limited', ...(a.retryAfterSec !== null && { retry_after_sec: a.retryAfterSec }), detail: detailOf(a) };
        // 202: still verifying (asking again later costs nothing more); 222: the remote SMTP server failed it.
        if (a.status !== 200 || !a.json?.data) return { status: null, cost_micros: 0, outcome: 'error', detail: a.status === 202 ? 'hunter: verification still in progress' : detailOf(a) };
        const status = verifyStatusOf(a.json.data as HunterVerifierData);
        if (!status) return { status: null, cost_micros: HUNTER_COST_MICROS.verify, outcome: 'error', detail: `hunter: unknown verification status ${JSON.stringify(a.json.data.status ?? null)}` };
        return { status, cost_micros: HUNTER_COST_MICROS.verify, outcome: 'verified' };
      },
    },
  };
}
