// Engine selection from environment plus the deadline wrapper the route uses.

import { askOffline } from './ask_offline';
import { createHostedEngine } from './hosted';
import { createOfflineEngine } from './offline_engine';
import { AiEngineError, type AiEngine, type Answer, type AskFacts, type SuggestContext, type SuggestInput, type Suggestion } from './types';

export * from './types';
export { createHostedEngine, type HostedConfig } from './hosted';
export { createOfflineEngine, OFFLINE_MODEL } from './offline_engine';

export interface AiEnv {
  AI_PROVIDER?: string;
  AI_MODEL?: string;
  AI_API_KEY?: string;
  AI_BASE_URL?: string;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

export function createAiEngine(env: AiEnv): AiEngine {
  const provider = (env.AI_PROVIDER ?? '').trim().toLowerCase();
  if (!provider || provider === 'offline') return createOfflineEngine();
  if (provider !== 'openai' && provider !== 'anthropic') {
    throw new Error(`Unknown AI_PROVIDER "${env.AI_PROVIDER}": expected "openai", "anthropic" or unset for the offline engine`);
  }
  const model = (env.AI_MODEL ?? '').trim();
  const apiKey = (env.AI_API_KEY ?? '').trim();
  if (!model) throw new Error(`AI_PROVIDER=${provider} requires AI_MODEL`);
  if (!apiKey) throw new Error(`AI_PROVIDER=${provider} requires AI_API_KEY`);
  const baseUrl = (env.AI_BASE_URL ?? '').trim() || undefined;
  return createHostedEngine({ provider, model, apiKey, baseUrl });
}

/**
 * Runs one engine call under a deadline and the caller's abort signal: on timeout the call's own signal aborts
 * (a hosted request is cancelled, never waited for) and the caller gets a `timeout` AiEngineError; any other
 * failure becomes an AiEngineError naming `what`. Shared by suggestions and questions.
 */
async function withinDeadline<T>(what: string, ms: number, outer: AbortSignal | undefined, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const timeoutError = new AiEngineError('timeout', `AI ${what} timed out after ${ms} ms`);
  const onOuterAbort = () => controller.abort(outer?.reason ?? new AiEngineError('aborted', 'AI request aborted'));
  if (outer?.aborted) onOuterAbort();
  else outer?.addEventListener('abort', onOuterAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(timeoutError);
      reject(timeoutError);
    }, ms);
  });
  try {
    return await Promise.race([call(controller.signal), deadline]);
  } catch (e) {
    if (controller.signal.aborted && controller.signal.reason === timeoutError) throw timeoutError;
    if (e instanceof AiEngineError) throw e;
    throw new AiEngineError('internal', `AI ${what} failed: ${(e as Error)?.message ?? String(e)}`, { cause: e });
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  }
}

/**
 * Runs engine.suggest with a deadline. On timeout the request is aborted (so a hosted
 * call stops consuming tokens) and AiEngineError('timeout') is thrown even if the
 * engine ignores its signal. A caller-supplied ctx.signal still cancels early.
 */
export function suggestWithin(engine: AiEngine, input: SuggestInput, ctx: SuggestContext, ms: number = DEFAULT_TIMEOUT_MS): Promise<Suggestion> {
  return withinDeadline('suggestion', ms, ctx.signal, (signal) => engine.suggest(input, { ...ctx, signal }));
}

/** Wraps an engine so every suggest() call gets the same deadline. */
export function withTimeout(engine: AiEngine, ms: number = DEFAULT_TIMEOUT_MS): AiEngine {
  return { model: engine.model, suggest: (input, ctx) => suggestWithin(engine, input, ctx, ms), ask: (q, facts, ctx) => askWithin(engine, q, facts, ms, ctx?.signal) };
}

/** The engine's answer, or the offline engine's when the engine has no ask (a suggestion-only double). */
export function askWith(engine: AiEngine, question: string, facts: AskFacts, ctx?: { signal?: AbortSignal }): Promise<Answer> {
  return engine.ask ? engine.ask(question, facts, ctx) : Promise.resolve(askOffline(question, facts));
}

/** engine.ask with the same deadline as a suggestion: a hosted call that hangs is aborted, never waited for. */
export function askWithin(engine: AiEngine, question: string, facts: AskFacts, ms: number = DEFAULT_TIMEOUT_MS, outer?: AbortSignal): Promise<Answer> {
  return withinDeadline('question', ms, outer, (signal) => askWith(engine, question, facts, { signal }));
}
