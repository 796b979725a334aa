import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { classifyHosted } from '../../lib/classify/hosted';
import { classifyReply } from '../../lib/classify/index';

// A fake OpenAI-compatible endpoint; each test swaps in its own handler.
type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;
let handler: Handler;
let server: Server;
let baseUrl: string;
const seen: { url?: string; headers: IncomingMessage['headers']; body: any }[] = [];

const completion = (content: string) =>
  JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content } }] });
const answer = (classification: string, confidence = 0.9): Handler => (_req, _body, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(completion(JSON.stringify({ classification, confidence })));
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ url: req.url, headers: req.headers, body: body ? JSON.parse(body) : null });
      handler(req, body, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

beforeEach(() => {
  seen.length = 0;
  handler = answer('hot');
});

const cfg = (extra: Partial<Parameters<typeof classifyHosted>[1]> = {}) => ({
  baseUrl,
  apiKey: 'sk-test-123',
  model: 'tiny-classifier',
  ...extra,
});

describe('classifyHosted', () => {
  it('sends an OpenAI-compatible chat completion request and parses the JSON answer', async () => {
    handler = answer('warm', 0.72);
    const r = await classifyHosted('Interesting, tell me more.', cfg());
    expect(r).toEqual({ classification: 'warm', confidence: 0.72 });

    expect(seen).toHaveLength(1);
    const req = seen[0];
    expect(req.url).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer sk-test-123');
    expect(req.headers['content-type']).toMatch(/application\/json/);
    expect(req.body.model).toBe('tiny-classifier');
    expect(req.body.response_format).toEqual({ type: 'json_object' });
    expect(req.body.messages[0].role).toBe('system');
    for (const l of ['hot', 'warm', 'cold', 'not_interested', 'ooo']) expect(req.body.messages[0].content).toContain(l);
    expect(req.body.messages.at(-1)).toEqual({ role: 'user', content: 'Interesting, tell me more.' });
  });

  it('tolerates a trailing slash in baseUrl and clamps confidence', async () => {
    handler = answer('cold', 7);
    const r = await classifyHosted('?', cfg({ baseUrl: baseUrl + '/' }));
    expect(seen[0].url).toBe('/v1/chat/completions');
    expect(r).toEqual({ classification: 'cold', confidence: 1 });
  });

  it.each<[string, Handler, RegExp]>([
    ['non-2xx', (_q, _b, res) => res.writeHead(500).end('upstream exploded'), /HTTP 500/],
    ['a non-JSON body', (_q, _b, res) => res.writeHead(200).end('<html>oops</html>'), /non-JSON/],
    ['non-JSON message content', (_q, _b, res) => res.writeHead(200).end(completion('I think it is hot')), /not valid JSON/],
    ['no choices', (_q, _b, res) => res.writeHead(200).end('{"choices":[]}'), /no message content/],
    ['an unknown label', answer('lukewarm'), /unknown label/],
  ])('throws on %s', async (_name, h, err) => {
    handler = h;
    await expect(classifyHosted('hello', cfg())).rejects.toThrow(err);
  });

  it('throws on timeout', async () => {
    handler = (_q, _b, res) => void setTimeout(() => answer('hot')(_q, _b, res), 1_000);
    await expect(classifyHosted('hello', cfg({ timeoutMs: 30 }))).rejects.toThrow(/timed out/);
  });

  it('uses an injected fetch', async () => {
    let called = '';
    const fakeFetch = (async (url: string | URL | Request) => {
      called = String(url);
      return new Response(completion('{"classification":"ooo","confidence":0.5}'), { status: 200 });
    }) as typeof fetch;
    const r = await classifyHosted('away', { baseUrl: 'https://llm.example/v1', apiKey: 'k', model: 'm', fetch: fakeFetch });
    expect(called).toBe('https://llm.example/v1/chat/completions');
    expect(r.classification).toBe('ooo');
  });
});

describe('classifyReply', () => {
  const UNSUB = 'unsubscribe\n\nOn Tue, Mar 4, 2025 Sam <sam@x.io> wrote:\n> Open to a call? Happy to demo.';

  it('uses the hosted model when configured', async () => {
    handler = answer('hot', 0.8);
    const r = await classifyReply("Let's talk Tuesday.", { hosted: cfg() });
    expect(r).toEqual({ classification: 'hot', confidence: 0.8, engine: 'hosted' });
  });

  it('sends only the own text plus the subject to the model', async () => {
    await classifyReply(UNSUB, { subject: 'Re: Quick question', hosted: cfg() });
    expect(seen[0].body.messages.at(-1).content).toBe('Subject: Re: Quick question\n\nunsubscribe');
  });

  it('uses offline when hosted is null or absent', async () => {
    expect(await classifyReply(UNSUB, { hosted: null })).toMatchObject({ classification: 'not_interested', engine: 'offline' });
    expect(await classifyReply(UNSUB, {})).toMatchObject({ engine: 'offline' });
    expect(seen).toHaveLength(0);
  });

  it.each<[string, Handler]>([
    ['a 500', (_q, _b, res) => res.writeHead(500).end('boom')],
    ['invalid JSON', (_q, _b, res) => res.writeHead(200).end(completion('not json at all'))],
    ['an unknown label', answer('spicy')],
  ])('falls back to offline on %s', async (_name, h) => {
    handler = h;
    const errors: unknown[] = [];
    const r = await classifyReply(UNSUB, { hosted: cfg(), onHostedError: (e) => errors.push(e) });
    expect(r).toMatchObject({ classification: 'not_interested', engine: 'offline' });
    expect(errors).toHaveLength(1);
  });

  it('falls back to offline on a timeout', async () => {
    handler = (_q, _b, res) => void setTimeout(() => answer('hot')(_q, _b, res), 1_000);
    const r = await classifyReply(UNSUB, { hosted: cfg({ timeoutMs: 25 }) });
    expect(r).toMatchObject({ classification: 'not_interested', engine: 'offline' });
  });

  it('falls back to offline when the server is unreachable', async () => {
    const r = await classifyReply('Who are you?', { hosted: cfg({ baseUrl: 'http://127.0.0.1:1/v1' }) });
    expect(r).toMatchObject({ classification: 'cold', engine: 'offline' });
  });
});
