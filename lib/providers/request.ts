// One HTTP call to a sending tool's API (Instantly, Smartlead), shared by their clients. Workers-safe: fetch and
// AbortSignal only. Exactly one attempt: a POST that sends mail is never repeated here (neither tool documents an
// idempotency key, so a retry after a timeout or 5xx could send the prospect the same answer twice).
// Every failure is a ProviderApiError whose message never contains the API key (redacted wherever it could echo).

export type ApiFailure =
  /** 429: the tool's rate limit (retryAfterSec when it said). */
  | 'rate_limited'
  /** 401/403: the API key is wrong, revoked or lacks the scope. */
  | 'unauthorized'
  /** Any other non-2xx answer. */
  | 'http'
  /** No complete answer within the timeout. */
  | 'timeout'
  /** The connection was never made (DNS, connection refused, no route, TLS handshake): nothing reached the tool. */
  | 'unreachable'
  /** The connection broke after it was made (reset, closed): the request may have reached the tool. */
  | 'network'
  /** A 3xx: not followed, so an answer can never come from a host we did not choose. */
  | 'redirect'
  /** 2xx, but the body is not the JSON the tool documents. */
  | 'bad_response'
  /** 2xx, but the body says the tool did not do it (Smartlead's `ok: false`). */
  | 'rejected';

export class ProviderApiError extends Error {
  override readonly name = 'ProviderApiError';
  constructor(
    message: string,
    readonly api: string,
    readonly failure: ApiFailure,
    /** The HTTP status, or null when no answer came. */
    readonly status: number | null,
    /** Seconds the tool asked us to wait (Retry-After, or its body's retry_after), when it said. */
    readonly retryAfterSec: number | null,
    /** The start of the answer's body, key redacted. */
    readonly bodySnippet: string | null,
  ) {
    super(message);
  }

  /** The tool answered 2xx: it accepted the request even if we could not read what it said. */
  get accepted(): boolean {
    return this.status !== null && this.status >= 200 && this.status < 300 && this.failure === 'bad_response';
  }

  /**
   * False only when the tool surely did not act on the request: it refused it (4xx, incl. 401/403/429, or a 2xx
   * saying `ok: false`) or the connection was never made. A timeout, a broken connection, a 5xx or a redirect can
   * follow a request the tool carried out (neither tool has an idempotency key to ask it which).
   */
  get mayHaveActed(): boolean {
    switch (this.failure) {
      case 'rate_limited':
      case 'unauthorized':
      case 'unreachable':
      case 'rejected':
        return false;
      case 'http':
        return this.status === null || statusMayHaveActed(this.status);
      default:
        return true;
    }
  }
}

/**
 * Whether a server that answered this non-2xx status may have carried out the request: a 4xx says it refused it;
 * a 5xx can come after the work was done (a crash while answering, a gateway giving up on a slow backend), and a
 * 3xx to a POST may be Post/Redirect/Get after doing it.
 */
export function statusMayHaveActed(status: number): boolean {
  return !(status >= 400 && status < 500);
}

// Errors of the connection attempt itself (Node's net/dns/tls codes, undici's connect timeout): the request was
// never written. Anything else (ECONNRESET, UND_ERR_SOCKET "other side closed", an error without a code, as on
// Workers) may come after the request went out.
const NEVER_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NODATA',
  'EAI_NONAME',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** True when a fetch failed while connecting, before any byte of the request was sent. */
export function failedBeforeSending(err: unknown): boolean {
  const cause = (err as { cause?: { code?: unknown; errors?: unknown } } | null)?.cause;
  if (!cause || typeof cause !== 'object') return false;
  if (typeof cause.code === 'string' && NEVER_CONNECTED.has(cause.code)) return true;
  // Happy eyeballs (several addresses tried) reports an AggregateError: never connected if no attempt did.
  const each = Array.isArray(cause.errors) ? (cause.errors as Array<{ code?: unknown }>) : [];
  return each.length > 0 && each.every((e) => typeof e?.code === 'string' && NEVER_CONNECTED.has(e.code));
}

export type ApiRequest = {
  /** Names the tool in messages ("Instantly API"). */
  api: string;
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body?: unknown;
  timeoutMs: number;
  /** Removed from every message and snippet (it may travel in the URL or be echoed by an error page). */
  secret: string;
};

const SNIPPET_CHARS = 200;
// A documented answer is a few KB; more than this is not one, and we never buffer a hostile answer whole.
const MAX_BODY_BYTES = 1024 * 1024;

/** Sends the request once and returns the parsed JSON body of a 2xx answer; throws ProviderApiError otherwise. */
export async function requestJson<T>(req: ApiRequest): Promise<T> {
  const signal = AbortSignal.timeout(req.timeoutMs);
  const fail = (failure: ApiFailure, status: number | null, detail: string, snippet: string | null = null, retryAfterSec: number | null = null) =>
    new ProviderApiError(redact(`${req.api} ${detail}`, req.secret), req.api, failure, status, retryAfterSec, snippet);

  let res: Response;
  try {
    res = await fetch(req.url.href, {
      method: req.method,
      headers: { Accept: 'application/json', ...(req.body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...req.headers },
      body: req.body !== undefined ? JSON.stringify(req.body) : undefined,
      redirect: 'manual',
      signal,
    });
  } catch (err) {
    if (signal.aborted) throw fail('timeout', null, `did not answer: timeout after ${req.timeoutMs} ms`);
    if (failedBeforeSending(err)) throw fail('unreachable', null, `unreachable (${describeNetworkError(err)})`);
    throw fail('network', null, `connection lost (${describeNetworkError(err)})`);
  }
  // The status has come, and it decides: a body that breaks off (or times out) is read as empty, so a 2xx is
  // still accepted (bad_response) and a refusal still a refusal.
  const text = await readBounded(res).catch(() => '');

  const snippet = text ? redact(text, req.secret).slice(0, SNIPPET_CHARS) : null;
  const tail = snippet ? `: ${snippet}` : '';
  if (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400)) {
    throw fail('redirect', res.status || null, `answered with a redirect (HTTP ${res.status || 'opaque'}), not followed`);
  }
  if (res.status === 429) {
    const retryAfterSec = parseRetryAfter(res.headers.get('retry-after')) ?? retryAfterFromBody(text);
    const wait = retryAfterSec !== null ? `, retry after ${retryAfterSec} s` : '';
    throw fail('rate_limited', 429, `rate-limited the request (HTTP 429${wait})${tail}`, snippet, retryAfterSec);
  }
  if (res.status === 401 || res.status === 403) {
    throw fail('unauthorized', res.status, `refused the API key (HTTP ${res.status})${tail}`, snippet);
  }
  if (res.status < 200 || res.status >= 300) throw fail('http', res.status, `answered HTTP ${res.status}${tail}`, snippet);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw fail('bad_response', res.status, `answered HTTP ${res.status} with a body that is not JSON${tail}`, snippet);
  }
}

/** Joins a configured base URL (with or without a path and trailing slash) and an API path. */
export function apiUrl(base: string, path: string, query: Record<string, string> = {}): URL {
  const url = new URL(base.replace(/\/+$/, '') + path);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return url;
}

/** Retry-After as seconds (delta-seconds or an HTTP date); null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v);
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** Smartlead documents `{ error: { retry_after } }` on its 429s; a header wins when both are given. */
function retryAfterFromBody(text: string): number | null {
  try {
    const body = JSON.parse(text) as { retry_after?: unknown; error?: { retry_after?: unknown } };
    const v = body?.error?.retry_after ?? body?.retry_after;
    return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.ceil(v) : null;
  } catch {
    return null;
  }
}

async function readBounded(res: Response): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > MAX_BODY_BYTES) break;
      chunks.push(value);
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const c of chunks) {
    bytes.set(c, offset);
    offset += c.length;
  }
  return new TextDecoder().decode(bytes);
}

function describeNetworkError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  // undici keeps the useful part (ECONNREFUSED, ENOTFOUND, a certificate error) in `cause`.
  const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
  const detail = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : '';
  return detail ? `${err.message}: ${detail}` : err.message;
}

/** The text with every spelling of the secret (raw, and as a URL query value) replaced by `[redacted]`. */
export function redact(text: string, secret: string): string {
  if (!secret) return text;
  // The key as it appears in a URL query string, should an answer echo the address it was asked: the query
  // string we send (URLSearchParams: `!'()~` escaped, space as `+`) and encodeURIComponent's spelling of it.
  const spellings = [...new Set([secret, new URLSearchParams({ k: secret }).toString().slice(2), encodeURIComponent(secret)])];
  let out = text;
  // Longest first: no spelling is left half-replaced inside another.
  for (const s of spellings.sort((a, b) => b.length - a.length)) out = out.split(s).join('[redacted]');
  return out;
}
