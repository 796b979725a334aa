// Cloudflare's API v4 (https://developers.cloudflare.com/api/) as the production DNS host, with a Bearer API token
// (CLOUDFLARE_API_TOKEN) allowed to create zones in CLOUDFLARE_ACCOUNT_ID and edit their DNS and redirect rules.
// Per setup: find the zone (GET /zones?name=) or create it (POST /zones, type "full"); for each record look it up by
// type and name (GET /zones/{id}/dns_records?type=&name=) and create only the missing ones; the redirect is the one
// rule of the zone's dynamic-redirect phase entrypoint (PUT …/rulesets/phases/http_request_dynamic_redirect/entrypoint),
// which replaces that phase's rules: the zone is ours, bought for sending. Answers are { success, errors, result }.
// A failure is an outcome (429 → rate_limited with Retry-After; 5xx, timeouts, refusals → error); no message carries
// the token.
import { apiUrl, failedBeforeSending, parseRetryAfter, redact } from '../../providers/request';
import type { PortDeps } from '../registrar/port';
import { fullName } from './sim';
import type { DnsRecord, DnsRecords, SetupInput, SetupResult } from './port';

export const CLOUDFLARE_TIMEOUT_MS = 15_000;
/** Cloudflare's "automatic" TTL. */
const TTL_AUTO = 1;

type CfAnswer = { success?: boolean; errors?: Array<{ code?: number; message?: string }>; result?: any };

class CloudflareFailure extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly retryAfterSec: number | null,
  ) {
    super(message);
  }
}

export function redirectRule(domain: string, target: string) {
  return {
    description: `sending domain ${domain} redirects to the client's website`,
    expression: `(http.host eq "${domain}" or http.host eq "www.${domain}")`,
    action: 'redirect',
    action_parameters: { from_value: { status_code: 301, target_url: { value: target }, preserve_query_string: false } },
  };
}

export function createCloudflareDnsRecords(opts: { apiToken: string; accountId: string; baseUrl: string; timeoutMs?: number }): DnsRecords {
  const timeoutMs = opts.timeoutMs ?? CLOUDFLARE_TIMEOUT_MS;

  async function call(method: 'GET' | 'POST' | 'PUT', path: string, query: Record<string, string> = {}, body?: unknown): Promise<any> {
    const url = apiUrl(opts.baseUrl, path, query);
    const signal = AbortSignal.timeout(timeoutMs);
    const fail = (message: string, status: number | null, retryAfterSec: number | null = null) =>
      new CloudflareFailure(redact(`Cloudflare API ${method} ${path}: ${message}`, opts.apiToken), status, retryAfterSec);
    let res: Response;
    try {
      res = await fetch(url.href, {
        method,
        headers: { Authorization: `Bearer ${opts.apiToken}`, Accept: 'application/json', ...(body !== undefined && { 'Content-Type': 'application/json' }) },
        body: body !== undefined ? JSON.stringify(body) : undefined,
        redirect: 'manual',
        signal,
      });
    } catch (err) {
      throw fail(signal.aborted ? `timeout after ${timeoutMs} ms` : failedBeforeSending(err) ? 'unreachable' : 'connection lost', null);
    }
    const text = await res.text().catch(() => '');
    let json: CfAnswer | null = null;
    try {
      json = text ? (JSON.parse(text) as CfAnswer) : null;
    } catch {
      json = null;
    }
    const why = json?.errors?.length ? json.errors.map((e) => `${e.code ?? ''} ${e.message ?? ''}`.trim()).join('; ').slice(0, 200) : text.slice(0, 200);
    if (res.status === 429) {
      const after = parseRetryAfter(res.headers.get('retry-after'));
      throw fail(`rate limited (HTTP 429${after !== null ? `, retry after ${after} s` : ''})`, 429, after);
    }
    if (res.status < 200 || res.status >= 300) throw fail(`HTTP ${res.status}${why ? `: ${why}` : ''}`, res.status);
    if (!json || json.success !== true) throw fail(`answered without success${why ? `: ${why}` : ''}`, res.status);
    return json.result;
  }

  async function zoneId(domain: string): Promise<string> {
    const found = await call('GET', '/zones', { name: domain, 'account.id': opts.accountId });
    if (Array.isArray(found) && found[0]?.id) return String(found[0].id);
    const created = await call('POST', '/zones', undefined, { name: domain, account: { id: opts.accountId }, type: 'full' });
    if (!created?.id) throw new CloudflareFailure(`Cloudflare API POST /zones: no zone id in the answer for ${domain}`, 200, null);
    return String(created.id);
  }

  async function ensureRecord(zone: string, domain: string, r: DnsRecord): Promise<boolean> {
    const name = fullName(r.name, domain);
    const existing = await call('GET', `/zones/${zone}/dns_records`, { type: r.type, name });
    if (Array.isArray(existing) && existing.length > 0) return false;
    await call('POST', `/zones/${zone}/dns_records`, undefined, {
      type: r.type,
      name,
      content: r.content,
      ttl: TTL_AUTO,
      ...(r.priority !== undefined && { priority: r.priority }),
    });
    return true;
  }

  return {
    kind: 'cloudflare',
    async setup(_deps: PortDeps, input: SetupInput): Promise<SetupResult> {
      const domain = input.domain.trim().toLowerCase().replace(/\.$/, '');
      try {
        const zone = await zoneId(domain);
        let created = 0;
        let existing = 0;
        for (const r of input.records) {
          if (await ensureRecord(zone, domain, r)) created++;
          else existing++;
        }
        if (input.redirectTo) {
          await call('PUT', `/zones/${zone}/rulesets/phases/http_request_dynamic_redirect/entrypoint`, undefined, { rules: [redirectRule(domain, input.redirectTo)] });
        }
        return { ok: true, created, existing };
      } catch (err) {
        if (err instanceof CloudflareFailure && err.status === 429) {
          return { ok: false, reason: 'rate_limited', detail: err.message, ...(err.retryAfterSec !== null && { retry_after_sec: err.retryAfterSec }) };
        }
        return { ok: false, reason: 'error', detail: redact(err instanceof Error ? err.message : String(err), opts.apiToken) };
      }
    },
  };
}
