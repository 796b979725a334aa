import type { MiddlewareHandler } from 'hono';
import { timingSafeEqualStr } from '../crypto/secrets';
import { ApiError } from '../errors';
import type { AppEnv } from './env';

/** The admin API exists only when ADMIN_TOKEN is set (404 otherwise); a wrong bearer token is a 401. */
export function requireAdmin(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const expected = c.get('services').config.ADMIN_TOKEN;
    if (!expected) throw new ApiError('not_found', `no route for ${c.req.method} ${c.req.path}`);
    const header = c.req.header('authorization') ?? '';
    const presented = header.startsWith('Bearer ') ? header.slice(7) : '';
    if (!presented || !timingSafeEqualStr(presented, expected)) throw new ApiError('unauthorized', 'missing or wrong admin token');
    await next();
  };
}
