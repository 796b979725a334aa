import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../errors';
import type { AppEnv } from './env';

// Postgres text cannot hold NUL characters, and no field of this API has a use for them: refuse them at the
// door with a 400 instead of letting the database fail the write with a 500.
const JSON_NUL = /(^|[^\\])(\\\\)*\\u0000/;

/** Whether JSON text holds a NUL, raw or escaped (`\u0000`): such a string cannot be stored in Postgres text. */
export const jsonHasNul = (text: string) => text.includes('\0') || JSON_NUL.test(text);

// A body that is not UTF-8 would be decoded with U+FFFD in place of the bad bytes and stored that way: refuse it
// instead. `fatal` makes the decoder throw on invalid, overlong, surrogate and truncated sequences.
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Every request with a body (any method but GET/HEAD, any content type) must be valid UTF-8, and a JSON body
 * must hold no NUL character; the URL no NUL either. Runs before auth and before any handler, so a refused
 * request is charged nothing and writes nothing. Hono caches the body it reads here, so handlers still call
 * `c.req.json()` / `c.req.text()`; the body limit still applies (the read goes through its counting stream).
 */
export function rejectNulCharacters(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.url.includes('%00') || c.req.url.includes('\0')) throw new ApiError('validation_error', 'query: NUL characters are not allowed');
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.req.raw.body) {
      const bytes = await c.req.arrayBuffer();
      let text: string;
      try {
        text = UTF8.decode(bytes);
      } catch {
        throw new ApiError('validation_error', 'body: not valid UTF-8 (an invalid, overlong or truncated byte sequence); send text encoded as UTF-8');
      }
      if (c.req.header('content-type')?.includes('json') && jsonHasNul(text)) {
        throw new ApiError('validation_error', 'body: NUL characters (\\u0000) are not allowed in strings');
      }
    }
    await next();
  };
}
