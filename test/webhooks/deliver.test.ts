import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverOnce } from '../../lib/webhooks/deliver';

type Seen = { method?: string; headers: IncomingMessage['headers']; body: string };
let server: Server;
let base: string;
const seen: Seen[] = [];

function handler(req: IncomingMessage, res: ServerResponse) {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (c: string) => (body += c));
  req.on('end', () => {
    seen.push({ method: req.method, headers: req.headers, body });
    switch (req.url) {
      case '/ok':
        return res.writeHead(200, { 'content-type': 'text/plain' }).end('received');
      case '/no-content':
        return res.writeHead(204).end();
      case '/error':
        return res.writeHead(500).end('x'.repeat(1000));
      case '/error-unicode':
        return res.writeHead(502).end('é🚀'.repeat(400));
      case '/slow':
        return void setTimeout(() => res.writeHead(200).end('late'), 2_000).unref();
      case '/stall-body':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('partial');
        return; // never ends
      case '/redirect':
        return res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      default:
        return res.writeHead(404).end('nope');
    }
  });
}

beforeAll(async () => {
  server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const headers = { 'Content-Type': 'application/json', 'X-Service-Event-Id': 'evt_1' };
const body = JSON.stringify({ hello: 'world' });

describe('deliverOnce', () => {
  it('200: ok, with status, duration and the response body; sends a POST with our headers and body', async () => {
    const r = await deliverOnce({ url: `${base}/ok`, headers, body });
    expect(r).toMatchObject({ ok: true, status: 200, error: null, bodySnippet: 'received' });
    expect(r.durationMs).toBeGreaterThanOrEqual(0);
    const req = seen.at(-1)!;
    expect(req.method).toBe('POST');
    expect(req.body).toBe(body);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-service-event-id']).toBe('evt_1');
  });

  it('204 with no body is ok', async () => {
    const r = await deliverOnce({ url: `${base}/no-content`, headers, body });
    expect(r).toMatchObject({ ok: true, status: 204, error: null });
    expect(r.bodySnippet === null || r.bodySnippet === '').toBe(true);
  });

  it('500: not ok, body snippet cut to 300 characters', async () => {
    const r = await deliverOnce({ url: `${base}/error`, headers, body });
    expect(r).toMatchObject({ ok: false, status: 500, error: 'HTTP 500' });
    expect(r.bodySnippet).toBe('x'.repeat(300));
  });

  it('the snippet counts characters, not bytes or UTF-16 units, and never splits an emoji', async () => {
    const r = await deliverOnce({ url: `${base}/error-unicode`, headers, body });
    expect(r.status).toBe(502);
    expect(r.bodySnippet).toBe('é🚀'.repeat(150));
  });

  it('slow server with timeoutMs 100: ok false with a timeout error, promptly', async () => {
    const r = await deliverOnce({ url: `${base}/slow`, headers, body, timeoutMs: 100 });
    expect(r).toMatchObject({ ok: false, status: null, error: 'timeout after 100ms', bodySnippet: null });
    expect(r.durationMs).toBeGreaterThanOrEqual(90);
  });

  it('a 200 whose body never finishes still returns at the timeout, judged by its status', async () => {
    const r = await deliverOnce({ url: `${base}/stall-body`, headers, body, timeoutMs: 200 });
    expect(r).toMatchObject({ ok: true, status: 200, error: null, bodySnippet: 'partial' });
  });

  it('connection refused: ok false with the cause in the error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const r = await deliverOnce({ url: `http://127.0.0.1:${port}/`, headers, body });
    expect(r).toMatchObject({ ok: false, status: null, bodySnippet: null });
    expect(r.error).toMatch(/ECONNREFUSED/);
  });

  it('302: not followed, ok false, the target named in the error', async () => {
    const before = seen.length;
    const r = await deliverOnce({ url: `${base}/redirect`, headers, body });
    expect(r).toMatchObject({ ok: false, status: 302 });
    expect(r.error).toMatch(/redirect 302 not followed \(to http:\/\/169\.254\.169\.254/);
    expect(seen.length).toBe(before + 1);
  });

  it('never throws: invalid URL, throwing fetch, fetch that ignores the abort signal', async () => {
    const bad = await deliverOnce({ url: 'not a url', headers, body });
    expect(bad).toMatchObject({ ok: false, status: null });
    expect(bad.error).toBeTruthy();

    const throwing = (async () => {
      throw new Error('boom');
    }) as typeof fetch;
    expect(await deliverOnce({ url: `${base}/ok`, headers, body, fetch: throwing })).toMatchObject({
      ok: false,
      error: 'boom',
    });

    const syncThrowing = (() => {
      throw 'not an Error';
    }) as unknown as typeof fetch;
    expect((await deliverOnce({ url: `${base}/ok`, headers, body, fetch: syncThrowing })).ok).toBe(false);

    const hanging = (() => new Promise(() => {})) as typeof fetch;
    const r = await deliverOnce({ url: `${base}/ok`, headers, body, timeoutMs: 50, fetch: hanging });
    expect(r).toMatchObject({ ok: false, error: 'timeout after 50ms' });
  });

  it('uses redirect: manual and a signal when calling the injected fetch', async () => {
    let init: RequestInit | undefined;
    const spy = (async (_url: string, i?: RequestInit) => {
      init = i;
      return new Response('fine', { status: 201 });
    }) as typeof fetch;
    const r = await deliverOnce({ url: 'https://example.com/hook', headers, body, fetch: spy });
    expect(r).toMatchObject({ ok: true, status: 201, bodySnippet: 'fine' });
    expect(init).toMatchObject({ method: 'POST', redirect: 'manual', body, headers });
    expect(init?.signal).toBeInstanceOf(AbortSignal);
  });
});
