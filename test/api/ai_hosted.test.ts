// The hosted adapters through POST /v1/suggest, configured only by AI_PROVIDER / AI_MODEL / AI_API_KEY /
// AI_BASE_URL and pointed at a local node:http fake of each API. A failing or slow model is a 504 ai_error with no
// credit spent: there is no silent fallback to the offline engine (the caller asked for this model).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAiEngine } from '../../lib/ai';
import type { AiEngine } from '../../lib/ai/types';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';
import { creditsLeft, MEETING_REPLY, suggestedEvents } from './ai_helpers';

type Mode = 'ok' | 'http500' | 'no_suggestion' | 'hang';
type Seen = { path: string; headers: IncomingMessage['headers']; body: any };

const ANSWER = { suggestion: 'Hi Tom,\n\nWould Monday at 10:00 or Tuesday at 14:00 work for a short call?\n\nBest,', strategy: 'propose_meeting_times', confidence: 0.82 };

let server: Server;
let base: string;
let mode: Mode = 'ok';
let seen: Seen[] = [];
let closedEarly = 0;

function answer(res: ServerResponse, path: string) {
  const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const content = (text: string) =>
    path.endsWith('/chat/completions')
      ? { id: 'chatcmpl-1', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }] }
      : { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'text', text }], stop_reason: 'end_turn' };
  if (mode === 'ok') return send(200, content(JSON.stringify(ANSWER)));
  if (mode === 'http500') return send(500, { error: { message: 'upstream exploded for org-secret-42' } });
  if (mode === 'no_suggestion') return send(200, content('I would propose a call.'));
  res.on('close', () => {
    if (!res.writableEnded) closedEarly++;
  });
}

let env: TestEnv;
let openai: AiEngine;
beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      seen.push({ path: req.url ?? '', headers: req.headers, body: raw ? JSON.parse(raw) : null });
      answer(res, req.url ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  env = await startTestEnv({ AI_PROVIDER: 'openai', AI_MODEL: 'gpt-test', AI_API_KEY: 'sk-test-key', AI_BASE_URL: `${base}/v1` });
  openai = env.services.ai;
});
afterAll(async () => {
  await env.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  mode = 'ok';
  seen = [];
  env.services.ai = openai;
  env.services.aiTimeLimitMs = undefined;
});

const body = { reply_received: MEETING_REPLY, lead_name: 'Tom Baker', company: 'Acme', medium: 'linkedin' };

describe('AI_PROVIDER=openai (chat completions)', () => {
  it('answers with the hosted model, charged 1 credit', async () => {
    const t = await newTenant(env);
    const r = await t.call('POST', '/v1/suggest', { body });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ suggestion: ANSWER.suggestion, strategy: 'propose_meeting_times', confidence: 0.82, medium: 'linkedin', model: 'gpt-test', credits_remaining: 99 });
    expect(seen).toHaveLength(1);
    expect(seen[0].path).toBe('/v1/chat/completions');
    expect(seen[0].headers.authorization).toBe('Bearer sk-test-key');
    expect(seen[0].body.model).toBe('gpt-test');
    const prompt = seen[0].body.messages.map((m: { content: string }) => m.content).join('\n');
    expect(prompt).toContain(MEETING_REPLY);
    expect(prompt).toMatch(/LinkedIn/);
    expect((await suggestedEvents(env, t.org.id))[0].data).toMatchObject({ model: 'gpt-test', medium: 'linkedin' });
  });

  it("puts the client's learned edits into the model's prompt", async () => {
    const t = await newTenant(env);
    const s = await t.call('POST', '/v1/suggest', { body });
    const edited = 'Hey Tom, would Monday at 10:00 work for a 15-minute call? Cheers, Sam';
    const fb = await t.call('POST', '/v1/suggest/feedback', { body: { accepted: true, suggestion_id: s.json.suggestion_id, edited_version: edited } });
    expect(fb.json).toMatchObject({ learned: true, medium: 'linkedin' });
    seen = [];
    expect((await t.call('POST', '/v1/suggest', { body: { ...body, reply_received: 'Can we do a call next week?' } })).status).toBe(200);
    expect(JSON.stringify(seen[0].body.messages)).toContain('15-minute call? Cheers, Sam');
  });

  it('an HTTP error from the provider: 504 ai_error, no credit spent, no provider text leaked, no offline fallback', async () => {
    const t = await newTenant(env);
    mode = 'http500';
    const r = await t.call('POST', '/v1/suggest', { body });
    expect(r.status).toBe(504);
    expect(r.json.error.code).toBe('ai_error');
    expect(r.json.error.message).toMatch(/HTTP 500/);
    expect(r.text).not.toContain('org-secret-42');
    expect(await creditsLeft(t)).toBe(100);
    expect(await suggestedEvents(env, t.org.id)).toEqual([]);
  });

  it('an answer without a suggestion: 504 ai_error, no credit spent', async () => {
    const t = await newTenant(env);
    mode = 'no_suggestion';
    const r = await t.call('POST', '/v1/suggest', { body });
    expect(r.status).toBe(504);
    expect(r.json.error.code).toBe('ai_error');
    expect(await creditsLeft(t)).toBe(100);
  });

  it('a provider that does not answer in time: the request to it is aborted, 504 ai_error, no credit spent', async () => {
    const t = await newTenant(env);
    mode = 'hang';
    env.services.aiTimeLimitMs = 300; // the 30 s budget, shortened so the test sees it fire
    const before = closedEarly;
    const r = await t.call('POST', '/v1/suggest', { body });
    expect(r.status).toBe(504);
    expect(r.json.error.code).toBe('ai_error');
    await expect.poll(() => closedEarly).toBe(before + 1);
    expect(await creditsLeft(t)).toBe(100);
  });

  it('an unreachable provider: 504 ai_error, no credit spent', async () => {
    const t = await newTenant(env);
    env.services.ai = createAiEngine({ AI_PROVIDER: 'openai', AI_MODEL: 'gpt-test', AI_API_KEY: 'k', AI_BASE_URL: 'http://127.0.0.1:9/v1' });
    const r = await t.call('POST', '/v1/suggest', { body });
    expect(r.status).toBe(504);
    expect(r.json.error.message).toMatch(/could not be reached/);
    expect(await creditsLeft(t)).toBe(100);
  });
});

describe('AI_PROVIDER=anthropic (messages)', () => {
  it('answers with the hosted model through the same route', async () => {
    const t = await newTenant(env);
    env.services.ai = createAiEngine({ AI_PROVIDER: 'anthropic', AI_MODEL: 'claude-test', AI_API_KEY: 'ak-test', AI_BASE_URL: base });
    const r = await t.call('POST', '/v1/suggest', { body: { ...body, medium: 'email' } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ suggestion: ANSWER.suggestion, model: 'claude-test', medium: 'email', credits_remaining: 99 });
    expect(seen[0].path).toBe('/v1/messages');
    expect(seen[0].headers['x-api-key']).toBe('ak-test');
    expect(seen[0].body.model).toBe('claude-test');
  });

  it('a provider error is a 504 ai_error with no credit spent', async () => {
    const t = await newTenant(env);
    env.services.ai = createAiEngine({ AI_PROVIDER: 'anthropic', AI_MODEL: 'claude-test', AI_API_KEY: 'ak-test', AI_BASE_URL: base });
    mode = 'http500';
    const r = await t.call('POST', '/v1/suggest', { body });
    expect(r.status).toBe(504);
    expect(await creditsLeft(t)).toBe(100);
  });
});
