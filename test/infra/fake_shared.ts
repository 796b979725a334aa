// The parts the fake sending-tool APIs share: a node:http server on 127.0.0.1, request recording, and the
// failure modes a test can switch on (429 with Retry-After, 5xx, a slow answer, a redirect, a dropped connection).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type RecordedRequest = {
  method: string;
  /** Path without the query string. */
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  /** The raw body text. */
  body: string;
  /** The parsed body, or undefined when it was not JSON. */
  json: any;
};

export type FakeFailure =
  | { status: 429; retryAfterSec?: number; retryAfterInBody?: boolean }
  | { status: 500 | 502 | 503 }
  /** Holds the answer back this long (the adapters give up after their timeout). */
  | { slowMs: number }
  /** Answers 302 to this location: a client must not follow it. */
  | { redirectTo: string }
  /** Reads the request, then closes the connection without answering (a crash mid-request: it may have been done). */
  | { dropConnection: true };

export type Reply = { status: number; body: unknown; headers?: Record<string, string> };
export type Handler = (req: RecordedRequest) => Reply;

/** Starts the server; `route` answers a request that passed the failure modes. */
export async function startFakeApi(route: Handler, opts: { port?: number; failureBody: (f: FakeFailure & { status: number }) => unknown }) {
  const requests: RecordedRequest[] = [];
  const state: { failure: FakeFailure | null; failTimes: number | null } = { failure: null, failTimes: null };
  const sockets = new Set<import('node:net').Socket>();

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      let json: unknown;
      try {
        json = raw ? JSON.parse(raw) : undefined;
      } catch {
        json = undefined;
      }
      const recorded: RecordedRequest = { method: req.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers, body: raw, json };
      requests.push(recorded);

      const failure = state.failure;
      if (failure && state.failTimes !== null && --state.failTimes <= 0) {
        state.failure = null;
        state.failTimes = null;
      }
      const send = (r: Reply) => {
        if (res.destroyed) return;
        res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers }).end(r.body === undefined ? '' : JSON.stringify(r.body));
      };
      if (!failure) return send(route(recorded));
      if ('slowMs' in failure) {
        setTimeout(() => send(route(recorded)), failure.slowMs);
        return;
      }
      if ('redirectTo' in failure) return send({ status: 302, body: undefined, headers: { location: failure.redirectTo } });
      if ('dropConnection' in failure) return void req.socket.destroy();
      const headers: Record<string, string> = {};
      if (failure.status === 429 && failure.retryAfterSec !== undefined && !failure.retryAfterInBody) headers['retry-after'] = String(failure.retryAfterSec);
      send({ status: failure.status, body: opts.failureBody(failure), headers });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    /** Every request from now on fails this way (`times`: only the next n), until `setFailure(null)` or `reset()`. */
    setFailure(failure: FakeFailure | null, times?: number) {
      state.failure = failure;
      state.failTimes = failure && times ? times : null;
    },
    reset() {
      requests.length = 0;
      state.failure = null;
      state.failTimes = null;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export const isEmail = (v: unknown): v is string => typeof v === 'string' && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v);
export const isUuid = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);
export const isNonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.trim().length > 0;

/** A UUIDv7-looking id, like the ones Instantly issues. */
export function fakeUuid(): string {
  const hex = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
  const ms = Date.now().toString(16).padStart(12, '0').slice(-12);
  return `${ms.slice(0, 8)}-${ms.slice(8, 12)}-7${hex.slice(1, 4)}-${((parseInt(hex[4], 16) & 3) | 8).toString(16)}${hex.slice(5, 8)}-${hex.slice(8, 20)}`;
}
