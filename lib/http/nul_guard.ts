import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../errors';
import type { AppEnv } from './env';

// Postgres text cannot hold NUL characters, and no field of this API has a use for them: refuse them at the
// door with a 400 instead of letting the database fail the write with a 500.
const JSON_NUL = /(^|[^\\])(\\\\)*\\u0000/;

export function rejectNulCharacters(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.url.includes('%00') || c.req.url.includes('\0')) throw new ApiError('validation_error', 'query: NUL characters are not allowed');
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.req.header('content-type')?.includes('json')) {
      const text = await c.req.text();
      if (text.includes('\0') || JSON_NUL.test(text)) throw new ApiError('validation_error', 'body: NUL characters (\\u0000) are not allowed in strings');
    }
    await next();
  };
}
