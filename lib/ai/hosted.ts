// Hosted LLM engine over plain fetch (OpenAI-compatible chat completions or the
// Anthropic Messages API). No SDKs and no node: imports so it runs on Workers.
// Every failure becomes an AiEngineError: the route maps it to 504 ai_error and
// must not spend a credit, so nothing here may throw anything else.

import { CAPS } from './draft';
import { buildSystemPrompt, buildUserPrompt } from './prompt';
import { AiEngineError, normalizeMedium, type AiEngine, type Answer, type AskFacts, type Medium, type SuggestContext, type SuggestInput, type Suggestion } from './types';

export { AiEngineError };

export interface HostedConfig {
  provider: 'openai' | 'anthropic';
  model: string;
  apiKey: string;
  baseUrl?: string;
  fetch?: typeof fetch;
}

const MAX_TOKENS = 1024;
const ANTHROPIC_VERSION = '2023-06-01';

interface Req { url: string; headers: Record<string, string>; body: unknown }

function request(cfg: HostedConfig, system: string, user: string): Req {
  const base = (cfg.baseUrl ?? (cfg.provider === 'openai' ? 'https://api.openai.com/v1' : 'https://api.anthropic.com')).replace(/\/+$/, '');
  if (cfg.provider === 'openai') {
    return {
      url: `${base}/chat/completions`,
      headers: { authorization: `Bearer ${cfg.apiKey}`, 'content-type': 'application/json' },
      body: {
        model: cfg.model,
        messages: [{ role: 'system', content: system }, { role: 'user', content: user }],
        response_format: { type: 'json_object' },
        temperature: 0.3,
        max_tokens: MAX_TOKENS,
      },
    };
  }
  return {
    url: `${base}/v1/messages`,
    headers: { 'x-api-key': cfg.apiKey, 'anthropic-version': ANTHROPIC_VERSION, 'content-type': 'application/json' },
    body: { model: cfg.model, max_tokens: MAX_TOKENS, temperature: 0.3, system, messages: [{ role: 'user', content: user }] },
  };
}

function contentOf(provider: HostedConfig['provider'], body: unknown): string | null {
  const b = body as Record<string, any> | null;
  if (provider === 'openai') {
    const c = b?.choices?.[0]?.message?.content;
    return typeof c === 'string' ? c : null;
  }
  if (!Array.isArray(b?.content)) return null;
  const text = b.content.filter((x: any) => x?.type === 'text' && typeof x.text === 'string').map((x: any) => x.text).join('');
  return text || null;
}

// Models sometimes wrap JSON in ``` fences or add a sentence around it.
function parseJsonObject(text: string): Record<string, unknown> | null {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  try {
    const v = JSON.parse(text.slice(start, end + 1));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Removes things the rules forbid but models still produce, and enforces the medium cap. */
export function tidy(text: string, medium: Medium): string {
  let out = text.replace(/\r/g, '').replace(/^\s*subject:.*\n+/i, '').trim();
  const cap = CAPS[medium];
  if (medium !== 'email' && out.length > cap) {
    const cut = out.slice(0, cap);
    const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('? '), cut.lastIndexOf('! '), cut.lastIndexOf('.\n'));
    out = end > cap / 2 ? cut.slice(0, end + 1) : `${cut.slice(0, cut.lastIndexOf(' '))}…`;
  }
  return out;
}

const ASK_SYSTEM =
  'You answer one question about a sales lead from the facts given and nothing else. Reply with JSON only: {"answer": string, "confidence": number 0..1}. ' +
  'Keep the answer short (a word, a number, yes/no, or one sentence). When the facts do not tell, answer "" with confidence 0.';

/** One request whose answer is a JSON object; every failure is an AiEngineError. */
async function callJson(cfg: HostedConfig, doFetch: typeof fetch, req: Req, signal: AbortSignal | undefined): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    const res = await doFetch(req.url, { method: 'POST', headers: req.headers, body: JSON.stringify(req.body), signal });
    if (!res.ok) throw new AiEngineError('http_error', `${cfg.provider} returned HTTP ${res.status}`, { status: res.status });
    body = JSON.parse(await res.text());
  } catch (e) {
    if (e instanceof AiEngineError) throw e;
    if (signal?.aborted) throw abortError(signal, e);
    if (e instanceof SyntaxError) throw new AiEngineError('malformed', `${cfg.provider} returned a non-JSON body`, { cause: e });
    throw new AiEngineError('network', `${cfg.provider} request failed: ${(e as Error)?.message ?? String(e)}`, { cause: e });
  }
  const content = contentOf(cfg.provider, body);
  const obj = content ? parseJsonObject(content) : null;
  if (!obj) throw new AiEngineError('malformed', `${cfg.provider} answer had no JSON object`);
  return obj;
}

function abortError(signal: AbortSignal | undefined, cause: unknown): AiEngineError {
  if (signal?.reason instanceof AiEngineError) return signal.reason;
  return new AiEngineError('aborted', 'AI request aborted', { cause });
}

export function createHostedEngine(cfg: HostedConfig): AiEngine {
  // Calling a detached global fetch is fine, but fetch stored on an object and called
  // as a method throws "Illegal invocation" on Workers; wrap it instead.
  const doFetch: typeof fetch = cfg.fetch ?? ((input, init) => fetch(input, init));
  return {
    model: cfg.model,
    async ask(question: string, facts: AskFacts, ctx?: { signal?: AbortSignal }): Promise<Answer> {
      const signal = ctx?.signal;
      if (signal?.aborted) throw abortError(signal, signal.reason);
      const req = request(cfg, ASK_SYSTEM, `Question: ${question}\n\nFacts (JSON): ${JSON.stringify(facts)}`);
      const obj = await callJson(cfg, doFetch, req, signal);
      const answer = typeof obj.answer === 'string' ? obj.answer.trim() : typeof obj.answer === 'number' || typeof obj.answer === 'boolean' ? String(obj.answer) : '';
      const c = typeof obj.confidence === 'number' ? obj.confidence : Number(obj.confidence);
      return { answer, confidence: Number.isFinite(c) ? Math.round(Math.min(1, Math.max(0, c)) * 100) / 100 : 0.5 };
    },
    async suggest(input: SuggestInput, ctx: SuggestContext): Promise<Suggestion> {
      const medium = normalizeMedium(input.medium);
      const signal = ctx.signal;
      if (signal?.aborted) throw abortError(signal, signal.reason);
      const req = request(cfg, buildSystemPrompt(input, ctx.learned ?? [], ctx.now), buildUserPrompt(input));
      let body: unknown;
      try {
        const res = await doFetch(req.url, { method: 'POST', headers: req.headers, body: JSON.stringify(req.body), signal });
        if (!res.ok) {
          const detail = (await res.text().catch(() => '')).slice(0, 300);
          throw new AiEngineError('http_error', `${cfg.provider} returned HTTP ${res.status}${detail ? `: ${detail}` : ''}`, { status: res.status });
        }
        const raw = await res.text();
        try {
          body = JSON.parse(raw);
        } catch (cause) {
          throw new AiEngineError('malformed', `${cfg.provider} returned a non-JSON body`, { cause });
        }
      } catch (e) {
        if (e instanceof AiEngineError) throw e;
        if (signal?.aborted) throw abortError(signal, e);
        throw new AiEngineError('network', `${cfg.provider} request failed: ${(e as Error)?.message ?? String(e)}`, { cause: e });
      }
      const content = contentOf(cfg.provider, body);
      const obj = content ? parseJsonObject(content) : null;
      const suggestion = typeof obj?.suggestion === 'string' ? obj.suggestion.trim() : '';
      if (!obj || !suggestion) throw new AiEngineError('malformed', `${cfg.provider} answer had no JSON suggestion`);
      const strategy = typeof obj.strategy === 'string' && obj.strategy.trim() ? obj.strategy.trim() : 'llm_reply';
      const c = typeof obj.confidence === 'number' ? obj.confidence : Number(obj.confidence);
      return {
        suggestion: tidy(suggestion, medium),
        strategy,
        confidence: Number.isFinite(c) ? Math.round(Math.min(1, Math.max(0, c)) * 100) / 100 : 0.5,
        medium,
        model: cfg.model,
      };
    },
  };
}
