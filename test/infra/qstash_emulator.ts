/**
 * Minimal local QStash so tests run the production `@upstash/qstash` Client (publishing) and Receiver (signature
 * checks) end to end. The SDK's own dev server is a binary downloaded at run time, which cannot be had here.
 *
 * Protocol subset:
 *   GET  /v2/keys                      → { current, next } signing keys
 *   POST /v2/publish/<destination URL> → { messageId, url } (+ deduplicated: true for a repeat)
 *     Upstash-Delay (e.g. "10s", "2m", "1h30m"), Upstash-Not-Before (unix s; wins over delay),
 *     Upstash-Retries (default 3), Upstash-Method (default POST), Upstash-Deduplication-Id and
 *     Upstash-Content-Based-Deduplication (a repeat within `dedupWindowMs` gets the first messageId and is not
 *     delivered again), Upstash-Forward-<Name> (delivered as <Name>), Content-Type (delivered as is).
 *   All other Upstash-* publish headers (callbacks, flow control, timeout, retry-delay expressions, labels) are
 *   accepted and ignored; every other /v2 route answers 404.
 * Delivery: after the delay, <method> <destination> with the body verbatim plus Upstash-Signature, Upstash-Message-Id
 *   and Upstash-Retried. The signature is an HS256 JWT keyed with the current signing key's string bytes, claims
 *   { iss: "Upstash", sub: destination, iat, nbf, exp: now + 5 min, jti, body: base64url(sha256(raw body)) } —
 *   what Receiver.verify checks. Non-2xx or network failure is retried after retryDelayMs · 2^(attempt-1), up to
 *   Upstash-Retries more times; there is no DLQ (see `deliveries`).
 *
 * Safety: binds 127.0.0.1; Bearer token required; only http:// destinations on loopback are accepted, so a test can
 * never make it send traffic off the machine.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';

export interface PublishedMessage {
  messageId: string;
  destination: string;
  /** Raw body as UTF-8 text (what Receiver.verify must be given). */
  body: string;
  /** Headers the destination receives, apart from the per-attempt Upstash-* ones. */
  headers: Record<string, string>;
  /** Unix ms before which the message is not delivered. */
  notBefore: number;
  method: string;
  retries: number;
}
export interface Delivery {
  messageId: string;
  /** HTTP status, or 0 when the request itself failed (refused, timed out). */
  status: number;
  attempt: number;
  error?: string;
}
export interface QStashEmulator {
  port: number;
  url: string;
  token: string;
  currentSigningKey: string;
  nextSigningKey: string;
  published: PublishedMessage[];
  deliveries: Delivery[];
  close(): Promise<void>;
  /** Resolves once no message is waiting for its delay, in flight, or waiting to retry. */
  drain(): Promise<void>;
  /** Fault injection: the next n publishes answer 500 and are not recorded. */
  failNextPublishes(n: number): void;
}

const rand = (n: number) => randomBytes(n).toString('base64url');
const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');
const LOOPBACK = /^(127(\.\d{1,3}){3}|localhost|\[::1\])$/;

/** Sums "1h30m", "10s", "500ms"…; anything unparsable counts as no delay. */
function parseDuration(v: string | undefined): number {
  const unit: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  let ms = 0;
  for (const [, n, u] of (v ?? '').matchAll(/(\d+)(ms|s|m|h|d)/g)) ms += Number(n) * unit[u];
  return ms;
}

function sign(key: string, destination: string, body: Buffer): string {
  const now = Math.floor(Date.now() / 1000);
  const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const claims = b64url(JSON.stringify({
    iss: 'Upstash', sub: destination, iat: now, nbf: now, exp: now + 300, jti: `jwt_${rand(12)}`,
    body: b64url(createHash('sha256').update(body).digest()),
  }));
  return `${header}.${claims}.${createHmac('sha256', key).update(`${header}.${claims}`).digest('base64url')}`;
}

export async function startQStashEmulator(opts: {
  port?: number;
  currentSigningKey?: string;
  nextSigningKey?: string;
  token?: string;
  retryDelayMs?: number;
  dedupWindowMs?: number;
} = {}): Promise<QStashEmulator> {
  const token = opts.token ?? `qstash_${rand(18)}`;
  const currentSigningKey = opts.currentSigningKey ?? `sig_${rand(18)}`;
  const nextSigningKey = opts.nextSigningKey ?? `sig_${rand(18)}`;
  const retryDelayMs = opts.retryDelayMs ?? 200;
  const dedupWindowMs = opts.dedupWindowMs ?? 10 * 60_000;
  const published: PublishedMessage[] = [];
  const deliveries: Delivery[] = [];
  const dedup = new Map<string, { messageId: string; at: number }>();
  const timers = new Set<NodeJS.Timeout>();
  let pending = 0;
  let failPublishes = 0;
  let closed = false;
  let drainWaiters: Array<() => void> = [];

  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => { timers.delete(t); fn(); }, Math.max(0, ms));
    timers.add(t);
  };
  const settle = () => {
    if (--pending === 0) { for (const w of drainWaiters) w(); drainWaiters = []; }
  };

  function attempt(msg: PublishedMessage, raw: Buffer, n: number): void {
    if (closed) return;
    const done = (status: number, error?: string) => {
      deliveries.push({ messageId: msg.messageId, status, attempt: n, ...(error ? { error } : {}) });
      if (status >= 200 && status < 300) return settle();
      if (n > msg.retries || closed) return settle();
      later(retryDelayMs * 2 ** (n - 1), () => attempt(msg, raw, n + 1));
    };
    const hasBody = msg.method !== 'GET' && msg.method !== 'HEAD';
    const req = request(msg.destination, {
      method: msg.method,
      timeout: 10_000,
      headers: {
        ...msg.headers,
        'Upstash-Signature': sign(currentSigningKey, msg.destination, raw),
        'Upstash-Message-Id': msg.messageId,
        'Upstash-Retried': String(n - 1),
        ...(hasBody ? { 'Content-Length': String(raw.length) } : {}),
      },
    }, (res) => {
      res.resume(); // the destination's answer body is irrelevant; only its status counts
      res.on('end', () => done(res.statusCode ?? 0));
      res.on('error', (e) => done(0, e.message));
    });
    req.on('timeout', () => req.destroy(new Error('delivery timed out')));
    req.on('error', (e) => done(0, e.message));
    req.end(hasBody ? raw : undefined);
  }

  function publish(req: IncomingMessage, raw: Buffer, destination: string): { status: number; body: unknown } {
    let dest: URL;
    try { dest = new URL(destination); } catch { return { status: 400, body: { error: `invalid destination url: ${destination}` } }; }
    if (dest.protocol !== 'http:' || !LOOPBACK.test(dest.hostname)) {
      return { status: 400, body: { error: `emulator delivers only to http:// loopback destinations, not ${destination}` } };
    }
    const h = (name: string) => req.headers[name.toLowerCase()] as string | undefined;
    let dedupId = h('Upstash-Deduplication-Id');
    if (!dedupId && h('Upstash-Content-Based-Deduplication') === 'true') {
      dedupId = createHash('sha256').update(destination).update('\0').update(raw).digest('hex');
    }
    const seen = dedupId ? dedup.get(dedupId) : undefined;
    if (seen && Date.now() - seen.at < dedupWindowMs) {
      return { status: 200, body: { messageId: seen.messageId, url: destination, deduplicated: true } };
    }

    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      const fwd = /^upstash-forward-(.+)$/i.exec(k)?.[1];
      if (fwd && v !== undefined) headers[fwd] = Array.isArray(v) ? v.join(', ') : v;
    }
    if (h('Content-Type')) headers['Content-Type'] = h('Content-Type')!;
    const notBeforeS = Number(h('Upstash-Not-Before'));
    const retries = Number(h('Upstash-Retries') ?? 3);
    const msg: PublishedMessage = {
      messageId: `msg_${rand(18)}`,
      destination,
      body: raw.toString('utf8'),
      headers,
      notBefore: notBeforeS > 0 ? notBeforeS * 1000 : Date.now() + parseDuration(h('Upstash-Delay')),
      method: (h('Upstash-Method') ?? 'POST').toUpperCase(),
      retries: Number.isFinite(retries) && retries >= 0 ? retries : 3,
    };
    if (dedupId) dedup.set(dedupId, { messageId: msg.messageId, at: Date.now() });
    published.push(msg);
    pending++;
    later(msg.notBefore - Date.now(), () => attempt(msg, raw, 1));
    return { status: 200, body: { messageId: msg.messageId, url: destination } };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const send = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const path = req.url ?? '/';
    if (req.headers.authorization !== `Bearer ${token}`) return send(401, { error: 'Unauthorized' });
    if (req.method === 'GET' && path === '/v2/keys') return send(200, { current: currentSigningKey, next: nextSigningKey });
    if (req.method === 'POST' && path.startsWith('/v2/publish/')) {
      if (failPublishes > 0) { failPublishes--; return send(500, { error: 'injected publish failure' }); }
      // The destination is everything after the prefix, query string included, exactly as the client sent it
      // (decoded only when the whole URL arrived percent-encoded), since it becomes the JWT's `sub`.
      const dest = path.slice('/v2/publish/'.length);
      const { status, body } = publish(req, raw, /^https?%3A/i.test(dest) ? decodeURIComponent(dest) : dest);
      return send(status, body);
    }
    return send(404, { error: `not implemented by the QStash emulator: ${req.method} ${path}` });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e) => { if (!res.headersSent) res.writeHead(500); res.end(String(e)); });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as { port: number }).port;

  return {
    port,
    url: `http://127.0.0.1:${port}`,
    token,
    currentSigningKey,
    nextSigningKey,
    published,
    deliveries,
    failNextPublishes(n: number) { failPublishes = n; },
    drain: () => (pending === 0 || closed ? Promise.resolve() : new Promise<void>((r) => drainWaiters.push(r))),
    async close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const w of drainWaiters) w();
      drainWaiters = [];
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
