import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ApiError, envelope } from '../errors';
import { errorText, type Logger } from '../log';
import type { AppEnv } from './env';
import { withoutSignInToken } from '../web/urls';

const HTTP_CODES: Record<number, ApiError['code']> = {
  400: 'validation_error',
  401: 'unauthorized',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  504: 'request_timeout',
};

/** Every failure leaves as the same envelope; an unexpected one is logged with the request id, never its stack. */
export function handleError(err: Error, c: Context<AppEnv>) {
  if (err instanceof ApiError) {
    if (err.extra.retryAfter !== undefined) c.header('Retry-After', String(err.extra.retryAfter));
    return c.json(envelope(err.code, err.message, err.extra.body, err.extra.details), err.status as ContentfulStatusCode);
  }
  const answer = unexpectedAnswer(err, c.get('requestId') ?? 'unknown', withoutSignInToken(c.req.path), c.get('services')?.log);
  return c.json(answer.body, answer.status as ContentfulStatusCode);
}

/**
 * A failure as the status and envelope the caller gets, for faces that answer outside Hono's error handler (a
 * tool call answers an error result inside a 200 JSON-RPC response).
 */
export function errorAnswer(err: unknown, requestId: string, path: string, log?: Logger): { status: number; code: string; message: string; body: Record<string, unknown> } {
  if (err instanceof ApiError) {
    const body = envelope(err.code, err.message, err.extra.body, err.extra.details);
    return { status: err.status, code: err.code, message: err.message, body };
  }
  const a = unexpectedAnswer(err as Error, requestId, path, log);
  return { ...a, code: a.body.error.code, message: a.body.error.message };
}

function unexpectedAnswer(err: Error, requestId: string, path: string, log?: Logger): { status: number; body: { error: { code: string; message: string } } } {
  if (err instanceof HTTPException && HTTP_CODES[err.status]) {
    const code = HTTP_CODES[err.status];
    const message =
      err.status === 400 && /JSON/i.test(err.message)
        ? 'body: malformed JSON'
        : err.status === 415
          ? 'body: Content-Type must be application/json'
          : err.message || code;
    return { status: err.status, body: envelope(code, message) };
  }
  const fields = { requestId, path, error: err?.name, detail: errorText(err) };
  if (log) log.error('unhandled error', fields);
  else console.error(JSON.stringify({ level: 'error', msg: 'unhandled error', ...fields }));
  if (isUnavailable(err)) {
    return { status: 503, body: envelope('service_unavailable', `a backing service is unavailable; retry later (request ${requestId})`) };
  }
  return { status: 500, body: envelope('internal_error', `unexpected error (request ${requestId})`) };
}

// Connection-level failures of the database or Redis are a 503 the client may retry, not a 500.
function isUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  let e: unknown = err;
  while (e && typeof e === 'object' && !seen.has(e)) {
    seen.add(e);
    const code = (e as { code?: string }).code;
    const msg = String((e as { message?: string }).message ?? '');
    if (code && ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P03', '08006', '08001', '08003'].includes(code)) return true;
    if (/connection (terminated|refused|closed)|fetch failed|socket hang up|WebSocket/i.test(msg)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
