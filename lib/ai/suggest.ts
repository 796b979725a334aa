// POST /v1/suggest as a verb (REST today, MCP tools later): one credit, the client's lessons, the model within
// the request limit, and the spent credit + `assistant.suggested` committed together.
import type { AuthContext } from '../auth/keys';
import { randomToken } from '../crypto/secrets';
import { secondsUntilUtcMidnight } from '../credits/balance';
import { confirmHold, refundCredit, reserveCredit } from '../credits/meter';
import { ApiError } from '../errors';
import { errorText } from '../log';
import { emitEvent, truncate } from '../events/outbox';
import type { Services } from '../services';
import { suggestWithin } from './index';
import { loadLearnedExamples, resolveClient, suggestionSha } from './store';
import { AiEngineError, normalizeMedium, type Medium, type SuggestInput } from './types';

/**
 * The model's budget, counted from the handler's start: the 30 s request limit less room for what runs around
 * the call (auth and limits before it, the commit after it), so a slow model answers 504 `ai_error` with its
 * credit given back rather than being cut off by the platform's own 504.
 */
export const AI_TIME_LIMIT_MS = 27_000;

export type SuggestReplyInput = SuggestInput & {
  /** Beyond the spec (additive): whose lessons to use, for an organization-wide key. */
  client_id?: string | null;
};

export type SuggestReplyResult = {
  suggestion_id: string;
  suggestion: string;
  strategy: string;
  confidence: number;
  medium: Medium;
  model: string;
  credits_used: 1;
  credits_remaining: number;
};

export type SuggestDeps = Pick<Services, 'db' | 'ai' | 'clock' | 'log' | 'aiTimeLimitMs'>;

export const newSuggestionId = () => `sug_${randomToken(16, 'base62')}`;

export async function suggestReply({
  deps,
  auth,
  input,
  startedAt = Date.now(),
}: {
  deps: SuggestDeps;
  auth: AuthContext;
  input: SuggestReplyInput;
  /** Wall-clock ms when the request reached the handler (the deadline is real time, not the injected clock). */
  startedAt?: number;
}): Promise<SuggestReplyResult> {
  const { db, log } = deps;
  const now = deps.clock.now();
  const medium = normalizeMedium(input.medium);
  const clientId = await resolveClient(db, auth, input.client_id);
  const holdId = newSuggestionId();
  const hold = { id: holdId, orgId: auth.orgId, clientId, medium, replyText: input.reply_received, leadEmail: input.lead_email ?? null };
  const reservation = await reserveCredit(db, auth, hold, now);
  if (!reservation.ok) {
    throw new ApiError('daily_credit_limit_exceeded', `the daily limit of ${auth.dailyCreditLimit} credits is spent; credits reset at 00:00 UTC`, {
      retryAfter: secondsUntilUtcMidnight(now),
    });
  }

  // From here on every way out either commits the credit with its event or gives it back.
  const giveBack = async (why: string) => {
    try {
      await refundCredit(db, holdId, deps.clock.now());
    } catch (err) {
      // The hold stays pending and is reclaimed once it expires (lib/credits/meter.ts).
      log.error('credit refund failed; the hold will be reclaimed', { holdId, why, error: errorText(err) });
    }
  };

  let result;
  try {
    const learned = await loadLearnedExamples(db, auth.orgId, clientId, medium);
    const budget = Math.max(1, startedAt + (deps.aiTimeLimitMs ?? AI_TIME_LIMIT_MS) - Date.now());
    const { client_id: _client, ...engineInput } = input;
    result = await suggestWithin(deps.ai, { ...engineInput, medium }, { learned, now }, budget);
  } catch (err) {
    await giveBack(err instanceof AiEngineError ? err.code : 'error');
    if (!(err instanceof AiEngineError)) throw err;
    log.warn('AI suggestion failed', { holdId, code: err.code, status: err.status, detail: err.message });
    throw aiError(err);
  }

  let committed: boolean;
  try {
    committed = await db.transaction(async (tx) => {
      const done = await confirmHold(tx, holdId, {
        suggestion: result.suggestion,
        suggestionSha: await suggestionSha(result.suggestion),
        strategy: result.strategy,
        model: result.model,
        confidence: result.confidence,
        medium: result.medium,
        completedAt: now,
      });
      if (!done) return false;
      await emitEvent(tx, {
        orgId: auth.orgId,
        kind: 'assistant.suggested',
        at: now,
        data: {
          suggestion_id: holdId,
          suggestion: truncate(result.suggestion),
          strategy: result.strategy,
          medium: result.medium,
          model: result.model,
          confidence: result.confidence,
          ...(input.lead_email ? { lead_email: input.lead_email } : {}),
          client_id: clientId,
          key_id: auth.keyId,
        },
      });
      return true;
    });
  } catch (err) {
    await giveBack('commit failed');
    throw err;
  }
  // Only a hold reclaimed as expired is no longer pending: the request outlived any sane limit.
  if (!committed) throw new ApiError('ai_error', 'the AI model answered too late; no credit was spent');

  return {
    suggestion_id: holdId,
    suggestion: result.suggestion,
    strategy: result.strategy,
    confidence: result.confidence,
    medium: result.medium,
    model: result.model,
    credits_used: 1,
    credits_remaining: reservation.remaining,
  };
}

// The provider's own error text stays in the log: it can carry account details that are none of the caller's business.
function aiError(err: AiEngineError): ApiError {
  const what =
    err.code === 'timeout'
      ? 'the AI model did not answer within the 30 second request limit'
      : err.code === 'http_error'
        ? `the AI model's API answered HTTP ${err.status ?? 'error'}`
        : err.code === 'malformed'
          ? 'the AI model gave an answer without a usable suggestion'
          : 'the AI model could not be reached';
  return new ApiError('ai_error', `${what}; no credit was spent, retry later`);
}
