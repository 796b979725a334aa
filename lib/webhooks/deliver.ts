// One HTTP attempt of a webhook delivery. Retries, scheduling and the SSRF
// check (lib/net/ssrf.ts) belong to the caller; this only reports what happened.

export interface DeliverOnceInput {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export interface DeliveryResult {
  ok: boolean;
  status: number | null;
  durationMs: number;
  error: string | null;
  bodySnippet: string | null;
}

const SNIPPET_CHARS = 300;
// Enough bytes for 300 chars of 4-byte UTF-8; we never buffer a hostile endpoint's whole reply.
const SNIPPET_BYTES = SNIPPET_CHARS * 4;

/** Never throws: every failure becomes `ok: false` with an error string. */
export async function deliverOnce(input: DeliverOnceInput): Promise<DeliveryResult> {
  const { url, headers, body, timeoutMs = 10_000 } = input;
  const fetchImpl = input.fetch ?? globalThis.fetch;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);

  const controller = new AbortController();
  let timedOut = false;
  // Racing against this as well as passing the signal means a fetch or body
  // stream that ignores the signal still can't hang the delivery worker.
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
  });
  aborted.catch(() => {});
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);

  let res: Response | null = null;
  try {
    res = await Promise.race([
      fetchImpl(url, { method: 'POST', headers, body, redirect: 'manual', signal: controller.signal }),
      aborted,
    ]);
    const status = res.type === 'opaqueredirect' ? null : res.status;
    const bodySnippet = await readSnippet(res, aborted);
    const ok = status !== null && status >= 200 && status < 300;
    return { ok, status, durationMs: elapsed(), error: ok ? null : describeStatus(res), bodySnippet };
  } catch (err) {
    const error = timedOut ? `timeout after ${timeoutMs}ms` : describeError(err);
    return { ok: false, status: null, durationMs: elapsed(), error, bodySnippet: null };
  } finally {
    clearTimeout(timer);
    // readSnippet normally cancels; this covers a body it never got to (the stream is then unlocked).
    if (res?.body && !res.body.locked) res.body.cancel().catch(() => {});
  }
}

/** Reads at most SNIPPET_BYTES; a body that stalls or errors yields what arrived (or null). */
async function readSnippet(res: Response, aborted: Promise<never>): Promise<string | null> {
  if (!res.body) return null;
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < SNIPPET_BYTES) {
      const { done, value } = await Promise.race([reader.read(), aborted]);
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } catch {
    if (size === 0) return null;
  } finally {
    // Drop the rest: we only keep a snippet, and it releases the connection.
    reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    bytes.set(c, offset);
    offset += c.length;
  }
  // Array.from splits by code point so a surrogate pair is never cut in half.
  return Array.from(new TextDecoder().decode(bytes)).slice(0, SNIPPET_CHARS).join('');
}

function describeStatus(res: Response): string {
  if (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400)) {
    const location = res.headers.get('location');
    // Following it could land on a private address that the SSRF check never saw.
    return `redirect${res.status ? ` ${res.status}` : ''} not followed${location ? ` (to ${location.slice(0, 200)})` : ''}`;
  }
  return `HTTP ${res.status}`;
}

function describeError(err: unknown): string {
  if (!(err instanceof Error)) return `request failed: ${String(err)}`;
  // undici hides the useful part (ECONNREFUSED, ENOTFOUND, cert errors) in `cause`.
  const cause = (err as { cause?: unknown }).cause;
  if (cause && typeof cause === 'object') {
    const c = cause as { code?: unknown; message?: unknown };
    const detail = typeof c.code === 'string' ? c.code : typeof c.message === 'string' ? c.message : '';
    if (detail) return `${err.message}: ${detail}`;
  }
  return err.message;
}
