// The production table-tool adapter: one JSON POST per lead to the destination, with the webhook SSRF rules checked
// again at send time (a name may resolve elsewhere by now), no redirects followed, and a bounded wait.
import { checkOutboundUrl } from '../../net/ssrf';
import type { TablePostResult, TableTool } from './port';

export const TABLE_POST_TIMEOUT_MS = 10_000;
const USER_AGENT = 'ReplyIntelligence-TablePush/1.0';
/** A Retry-After beyond an hour is taken as an hour: the push resumes then and may be told to wait again. */
const MAX_RETRY_AFTER_SEC = 3600;

/** Retry-After as seconds (delta-seconds or an HTTP date, RFC 9110 §10.2.3); null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const text = value.trim();
  let sec: number;
  if (/^\d+$/.test(text)) sec = Number(text);
  else {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return null;
    sec = Math.ceil((at - now) / 1000);
  }
  return Math.min(MAX_RETRY_AFTER_SEC, Math.max(1, sec));
}

export function createHttpTableTool(opts: { fetch?: typeof fetch; timeoutMs?: number } = {}): TableTool {
  const fetchImpl = opts.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  const timeoutMs = opts.timeoutMs ?? TABLE_POST_TIMEOUT_MS;
  return {
    kind: 'http',
    async post(deps, input): Promise<TablePostResult> {
      const checked = await checkOutboundUrl(input.url, { allowPrivate: deps.allowPrivate, resolve: deps.resolveHost });
      if (!checked.ok) return { ok: false, throttled: false, error: `destination refused: ${checked.reason}` };
      const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': USER_AGENT };
      if (input.token) headers.authorization = `Bearer ${input.token}`;
      let res: Response;
      try {
        res = await fetchImpl(checked.url.href, {
          method: 'POST',
          headers,
          body: JSON.stringify(input.body),
          // Following a redirect could land on an address the SSRF check never saw.
          redirect: 'manual',
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        const name = (err as { name?: string })?.name;
        const error = name === 'TimeoutError' || name === 'AbortError' ? `timeout after ${timeoutMs} ms` : describeError(err);
        return { ok: false, throttled: false, error };
      }
      // Only the status matters: drop the body so the connection is released and a hostile reply is never buffered.
      await res.body?.cancel().catch(() => undefined);
      if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status };
      if (res.status === 429) {
        const retryAfterSec = parseRetryAfter(res.headers.get('retry-after'));
        return { ok: false, throttled: true, retryAfterSec, error: `HTTP 429${retryAfterSec ? ` (Retry-After ${retryAfterSec} s)` : ''}` };
      }
      if (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400)) return { ok: false, throttled: false, error: 'redirect not followed' };
      return { ok: false, throttled: false, error: `HTTP ${res.status}` };
    },
  };
}

function describeError(err: unknown): string {
  if (!(err instanceof Error)) return `request failed: ${String(err)}`;
  // undici keeps the useful part (ECONNREFUSED, ENOTFOUND, certificate errors) in `cause`.
  const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
  const detail = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : '';
  return detail ? `${err.message}: ${detail}` : err.message;
}
