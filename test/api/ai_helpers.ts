// Shared by the AI tests: an engine whose behaviour a test switches (the real offline engine by default, or a
// failure, a hang, a slow answer), and readers for credits, stored suggestions and assistant.suggested events.
import { and, asc, eq } from 'drizzle-orm';
import { createOfflineEngine } from '../../lib/ai';
import { AiEngineError, type AiEngine, type SuggestContext, type SuggestInput, type Suggestion } from '../../lib/ai/types';
import { aiSuggestions, creditUsage, events } from '../../schema';
import { utcDay } from '../../lib/credits/balance';
import type { TestEnv } from '../helpers/harness';
import type { Tenant } from '../helpers/tenant';

export type Behaviour =
  | { kind: 'offline' }
  | { kind: 'fail' }
  | { kind: 'hang' }
  | { kind: 'slow'; ms: number }
  | { kind: 'text'; text: string }
  /** Fails the calls whose reply contains `marker`, answers the others offline after `ms`. */
  | { kind: 'fail_marked'; marker: string; ms: number };

/** An engine the test steers; every call is counted. A hang still honours the abort signal, like a real fetch. */
export function steeredEngine() {
  const offline = createOfflineEngine();
  const state = { behaviour: { kind: 'offline' } as Behaviour, calls: 0, aborted: 0 };
  const wait = (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      const timer = ms >= 0 ? setTimeout(resolve, ms) : undefined;
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        state.aborted++;
        reject(signal.reason);
      });
    });
  const engine: AiEngine = {
    model: offline.model,
    async suggest(input: SuggestInput, ctx: SuggestContext): Promise<Suggestion> {
      state.calls++;
      const b = state.behaviour;
      if (b.kind === 'fail') throw new AiEngineError('http_error', 'provider said no: account sk-secret-123 over quota', { status: 500 });
      if (b.kind === 'hang') await wait(-1, ctx.signal);
      if (b.kind === 'slow') await wait(b.ms, ctx.signal);
      if (b.kind === 'fail_marked') {
        await wait(b.ms, ctx.signal);
        if (input.reply_received.includes(b.marker)) throw new AiEngineError('network', 'connection reset');
      }
      const s = await offline.suggest(input, ctx);
      return b.kind === 'text' ? { ...s, suggestion: b.text } : s;
    },
  };
  return { engine, state, set: (b: Behaviour) => (state.behaviour = b) };
}

/** Installs a steered engine into the running app (the services object is shared with the app). */
export function steer(env: TestEnv, opts: { timeLimitMs?: number } = {}) {
  const s = steeredEngine();
  env.services.ai = s.engine;
  env.services.aiTimeLimitMs = opts.timeLimitMs;
  return s;
}

export async function creditsLeft(t: Tenant, key = t.key): Promise<number> {
  const r = await t.call('GET', '/v1/me', { key });
  if (r.status !== 200) throw new Error(`me: ${r.status} ${r.text}`);
  return r.json.credits_remaining;
}

export async function suggestedEvents(env: TestEnv, orgId: string) {
  return env.services.db
    .select({ id: events.id, data: events.data })
    .from(events)
    .where(and(eq(events.orgId, orgId), eq(events.kind, 'assistant.suggested')))
    .orderBy(asc(events.createdAt));
}

export async function storedSuggestions(env: TestEnv, orgId: string) {
  return env.services.db.select().from(aiSuggestions).where(eq(aiSuggestions.orgId, orgId)).orderBy(asc(aiSuggestions.createdAt));
}

export const MEETING_REPLY = 'Sounds good, can we do a call next week?';
export const CONTEXT = 'We run done-for-you outbound for B2B SaaS teams. Pricing starts at $2,500/month with no long-term contract. Clients include Ramp and Vanta.';

/** A key with `limit` credits a day of which `used` are already spent today. */
export async function keyWith(env: TestEnv, t: Tenant, limit: number, used = 0) {
  const { key, secret } = await t.addKeyRecord({ daily_credit_limit: limit });
  if (used > 0) await env.services.db.insert(creditUsage).values({ keyId: key.id, day: utcDay(env.clock.now()), used });
  return { id: key.id, secret };
}

export async function usedToday(env: TestEnv, keyId: string) {
  const [row] = await env.services.db.select().from(creditUsage).where(and(eq(creditUsage.keyId, keyId), eq(creditUsage.day, utcDay(env.clock.now()))));
  return row?.used ?? 0;
}
