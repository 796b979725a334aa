import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHostedEngine, AiEngineError } from '../../lib/ai/hosted';
import { createAiEngine, suggestWithin, withTimeout } from '../../lib/ai/index';
import type { AiEngine, LearnedExample, SuggestInput } from '../../lib/ai/types';

const NOW = new Date('2026-11-20T09:00:00Z');

interface Seen { method: string; path: string; headers: IncomingMessage['headers']; body: any }
type Mode = 'ok' | 'fenced' | 'http500' | 'not_json' | 'no_suggestion' | 'slow' | 'long';

let server: Server;
let base: string;
let mode: Mode = 'ok';
let seen: Seen[] = [];
let aborted = 0;

const ANSWER = { suggestion: 'Hi Tom,\n\nWould Monday 23 November at 10:00 work?\n\nBest,', strategy: 'propose_meeting_times', confidence: 0.82 };

function reply(res: ServerResponse, path: string): void {
  const send = (status: number, body: string) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(body); };
  const wrap = (content: string) =>
    path.endsWith('/chat/completions')
      ? { id: 'x', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }
      : { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'text', text: content }], stop_reason: 'end_turn' };
  switch (mode) {
    case 'ok': return send(200, JSON.stringify(wrap(JSON.stringify(ANSWER))));
    case 'fenced': return send(200, JSON.stringify(wrap(`Here you go:\n\`\`\`json\n${JSON.stringify(ANSWER)}\n\`\`\``)));
    case 'http500': return send(500, '{"error":{"message":"upstream exploded"}}');
    case 'not_json': return send(200, '<html>502 Bad Gateway</html>');
    case 'no_suggestion': return send(200, JSON.stringify(wrap('I think you should propose a call.')));
    case 'long': return send(200, JSON.stringify(wrap(JSON.stringify({ ...ANSWER, suggestion: `Subject: Quick call\n${'Happy to help with that. '.repeat(30)}` }))));
    case 'slow': {
      const t = setTimeout(() => send(200, JSON.stringify(wrap(JSON.stringify(ANSWER)))), 5_000);
      res.on('close', () => { clearTimeout(t); if (!res.writableEnded) aborted++; });
      return;
    }
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: raw ? JSON.parse(raw) : null });
      reply(res, req.url ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  mode = 'ok';
  seen = [];
  aborted = 0;
});

const input: SuggestInput = {
  reply_received: 'Sounds good — can we talk next week?',
  lead_name: 'Tom Baker',
  lead_email: 'tom@acme.com',
  company: 'Acme',
  campaign_context: 'We run done-for-you outbound for B2B SaaS teams.',
  medium: 'email',
  tone: 'formal',
  previous_messages: [{ role: 'outbound', content: 'Would you be open to a quick call?' }],
};
const learned: LearnedExample[] = [
  { replyText: 'Can we do a call next week?', original: 'Hi Sam, would Monday work?', edited: 'Hey Sam, would Monday at 10 work? Cheers, Ana', medium: 'email' },
  { replyText: 'Can we do a call?', original: 'Hi Jo, call?', edited: 'LINKEDIN-ONLY EDIT', medium: 'linkedin' },
];

const openai = () => createHostedEngine({ provider: 'openai', model: 'gpt-test', apiKey: 'sk-test', baseUrl: `${base}/v1` });
const anthropic = () => createHostedEngine({ provider: 'anthropic', model: 'claude-test', apiKey: 'ak-test', baseUrl: base });

async function errorOf(p: Promise<unknown>): Promise<AiEngineError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(AiEngineError);
    return e as AiEngineError;
  }
  throw new Error('expected an AiEngineError');
}

describe('hosted engine: OpenAI-compatible', () => {
  it('sends a chat completion with bearer auth, JSON mode, and learned examples in the system prompt', async () => {
    const s = await openai().suggest(input, { learned, now: NOW });
    expect(s).toEqual({ ...ANSWER, medium: 'email', model: 'gpt-test' });
    expect(seen).toHaveLength(1);
    const r = seen[0];
    expect(r.method).toBe('POST');
    expect(r.path).toBe('/v1/chat/completions');
    expect(r.headers.authorization).toBe('Bearer sk-test');
    expect(r.headers['content-type']).toMatch(/application\/json/);
    expect(r.body.model).toBe('gpt-test');
    expect(r.body.response_format).toEqual({ type: 'json_object' });
    const [system, user] = r.body.messages;
    expect(system.role).toBe('system');
    expect(system.content).toContain('Hey Sam, would Monday at 10 work? Cheers, Ana');
    expect(system.content).not.toContain('LINKEDIN-ONLY EDIT');
    expect(system.content).toMatch(/Tone: formal/);
    expect(system.content).toMatch(/Never include a subject line/);
    expect(system.content).toMatch(/"suggestion"/);
    expect(user.role).toBe('user');
    expect(user.content).toContain('Sounds good — can we talk next week?');
    expect(user.content).toContain('Would you be open to a quick call?');
    expect(user.content).not.toContain('tom@acme.com');
  });

  it('raises AiEngineError on HTTP 500, a non-JSON body and an answer without JSON', async () => {
    mode = 'http500';
    const e500 = await errorOf(openai().suggest(input, { learned: [], now: NOW }));
    expect(e500.code).toBe('http_error');
    expect(e500.status).toBe(500);
    mode = 'not_json';
    expect((await errorOf(openai().suggest(input, { learned: [], now: NOW }))).code).toBe('malformed');
    mode = 'no_suggestion';
    expect((await errorOf(openai().suggest(input, { learned: [], now: NOW }))).code).toBe('malformed');
  });

  it('times out a slow server, aborting the request', async () => {
    mode = 'slow';
    const err = await errorOf(suggestWithin(openai(), input, { learned: [], now: NOW }, 150));
    expect(err.code).toBe('timeout');
    await new Promise((r) => setTimeout(r, 50));
    expect(aborted).toBe(1);
  });

  it('honours an already-aborted caller signal and refuses to call out', async () => {
    const ac = new AbortController();
    ac.abort();
    const err = await errorOf(openai().suggest(input, { learned: [], now: NOW, signal: ac.signal }));
    expect(err.code).toBe('aborted');
    expect(seen).toHaveLength(0);
  });

  it('strips a subject line and enforces the medium cap on what the model returns', async () => {
    mode = 'long';
    const s = await openai().suggest({ ...input, medium: 'whatsapp' }, { learned: [], now: NOW });
    expect(s.suggestion).not.toMatch(/subject:/i);
    expect(s.suggestion.length).toBeLessThanOrEqual(300);
    expect(s.medium).toBe('whatsapp');
  });
});

describe('hosted engine: Anthropic Messages', () => {
  it('posts to /v1/messages with x-api-key, anthropic-version and max_tokens, and parses fenced JSON', async () => {
    mode = 'fenced';
    const s = await anthropic().suggest({ ...input, medium: 'linkedin', tone: 'casual' }, { learned, now: NOW });
    expect(s).toEqual({ ...ANSWER, medium: 'linkedin', model: 'claude-test' });
    const r = seen[0];
    expect(r.path).toBe('/v1/messages');
    expect(r.headers['x-api-key']).toBe('ak-test');
    expect(r.headers['anthropic-version']).toBe('2023-06-01');
    expect(r.headers.authorization).toBeUndefined();
    expect(r.body.model).toBe('claude-test');
    expect(r.body.max_tokens).toBeGreaterThan(0);
    expect(r.body.system).toContain('LINKEDIN-ONLY EDIT');
    expect(r.body.system).not.toContain('Cheers, Ana');
    expect(r.body.system).toMatch(/at most 400 characters/);
    expect(r.body.messages).toEqual([{ role: 'user', content: expect.stringContaining('Sounds good') }]);
  });

  it('raises AiEngineError on 500, malformed JSON and a slow server', async () => {
    mode = 'http500';
    expect((await errorOf(anthropic().suggest(input, { learned: [], now: NOW }))).code).toBe('http_error');
    mode = 'not_json';
    expect((await errorOf(anthropic().suggest(input, { learned: [], now: NOW }))).code).toBe('malformed');
    mode = 'slow';
    expect((await errorOf(withTimeout(anthropic(), 100).suggest(input, { learned: [], now: NOW }))).code).toBe('timeout');
  });

  it('maps a connection failure to AiEngineError', async () => {
    const dead = createHostedEngine({ provider: 'anthropic', model: 'm', apiKey: 'k', baseUrl: 'http://127.0.0.1:1' });
    expect((await errorOf(dead.suggest(input, { learned: [], now: NOW }))).code).toBe('network');
  });
});

describe('engine selection and deadlines', () => {
  it('picks offline when AI_PROVIDER is unset, hosted otherwise, and rejects bad config', () => {
    expect(createAiEngine({}).model).toBe('offline-v1');
    expect(createAiEngine({ AI_PROVIDER: '' }).model).toBe('offline-v1');
    expect(createAiEngine({ AI_PROVIDER: 'openai', AI_MODEL: 'gpt-x', AI_API_KEY: 'k' }).model).toBe('gpt-x');
    expect(createAiEngine({ AI_PROVIDER: 'Anthropic', AI_MODEL: 'claude-x', AI_API_KEY: 'k' }).model).toBe('claude-x');
    expect(() => createAiEngine({ AI_PROVIDER: 'cohere', AI_MODEL: 'm', AI_API_KEY: 'k' })).toThrow(/Unknown AI_PROVIDER/);
    expect(() => createAiEngine({ AI_PROVIDER: 'openai', AI_MODEL: 'm' })).toThrow(/AI_API_KEY/);
    expect(() => createAiEngine({ AI_PROVIDER: 'openai', AI_API_KEY: 'k' })).toThrow(/AI_MODEL/);
  });

  it('times out an engine that ignores its abort signal', async () => {
    const stuck: AiEngine = { model: 'stuck', suggest: () => new Promise(() => {}) };
    const err = await errorOf(suggestWithin(stuck, input, { learned: [], now: NOW }, 30));
    expect(err.code).toBe('timeout');
  });

  it('passes results through and wraps unexpected engine errors', async () => {
    const s = await suggestWithin(createAiEngine({}), input, { learned: [], now: NOW }, 1_000);
    expect(s.model).toBe('offline-v1');
    const broken: AiEngine = { model: 'broken', suggest: async () => { throw new TypeError('boom'); } };
    expect((await errorOf(suggestWithin(broken, input, { learned: [], now: NOW }))).code).toBe('internal');
  });
});
