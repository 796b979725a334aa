import type { Context, MiddlewareHandler } from 'hono';
import { loadApiKey, orgStamp, resolveApiKey } from '../auth/keys';
import { scopeRefusal, type Scope } from '../auth/scopes';
import { ApiError } from '../errors';
import { errorText } from '../log';
import type { LimitCheck, LimitResult } from '../limits/port';
import type { AppEnv } from './env';

const IP_LIMIT = { name: 'ip', limit: 120, windowSec: 60 } as const;

const retryAfter = (r: LimitResult, now: number) => Math.max(1, Math.ceil((r.reset - now) / 1000));

/**
 * Authenticates `X-Service-Key` and counts the per-IP and per-key limits in one call to the limits port, which
 * also reads the organization's key stamp: when an admin change moved it past the stamp the cached key was
 * resolved under, the key is read again (features switched, scopes changed, revoked) before anything else runs.
 * Unauthenticated requests count against their IP too (core §8).
 */
export function authenticate(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { db, keyCache, clock } = c.get('services');
    const presented = presentedKey(c);
    const now = clock.now().getTime();
    const resolved = presented ? await resolveApiKey(db, keyCache, presented, now) : null;
    let auth = resolved?.auth ?? null;
    const checks: LimitCheck[] = [{ ...IP_LIMIT, id: c.get('clientIp') }];
    if (auth) checks.push({ name: 'key', id: auth.keyId, limit: auth.rateLimitPerMinute, windowSec: 60 });
    const counted = await checkFailingOpen(c, checks, auth?.orgId);
    if (!counted) {
      // Redis is unreachable: the general request limits fail open (the API stays up); sends, cooldowns,
      // credits and CRM writes keep failing closed in their own verbs. Cached keys live their 30 s.
      if (!auth) throw unauthorized(c, presented);
      c.set('auth', auth);
      return next();
    }
    if (resolved && counted.stamp !== undefined) {
      keyCache.noteStamp(resolved.auth.orgId, counted.stamp);
      if (resolved.stamp !== counted.stamp) auth = (await loadApiKey(db, keyCache, resolved.hash, now, counted.stamp))?.auth ?? null;
    }
    const [ip, key] = counted.results;
    if (key) {
      c.header('X-RateLimit-Limit', String(key.limit));
      c.header('X-RateLimit-Remaining', String(key.remaining));
      c.header('X-RateLimit-Reset', String(Math.ceil(key.reset / 1000)));
    }
    if (!ip.success) throw new ApiError('ip_rate_limit_exceeded', 'too many requests from this address', { retryAfter: retryAfter(ip, now) });
    if (!auth) throw unauthorized(c, presented);
    if (key && !key.success) throw new ApiError('rate_limit_exceeded', `rate limit of ${key.limit} requests per minute exceeded`, { retryAfter: retryAfter(key, now) });
    c.set('auth', auth);
    await next();
  };
}

/**
 * The key a request presents: `X-Service-Key`, or on the agency API and the tool server also
 * `Authorization: Bearer <key>` (core §5.4, agency-operator.md §1). Elsewhere a Bearer header is not a key.
 */
export function presentedKey(c: Context<AppEnv>): string | undefined {
  const header = c.req.header('x-service-key');
  if (header) return header;
  const path = c.req.path;
  if (!(path === '/mcp' || path.startsWith('/mcp/') || path.startsWith('/v1/agency/'))) return undefined;
  const auth = c.req.header('authorization') ?? '';
  return /^Bearer\s+\S/i.test(auth) ? auth.replace(/^Bearer\s+/i, '').trim() : undefined;
}

/**
 * The general request limits (and, for a known organization, its key stamp in the same round trip), or null
 * when the limits store cannot be reached (logged, never fatal).
 */
async function checkFailingOpen(c: Context<AppEnv>, checks: LimitCheck[], orgId?: string): Promise<{ results: LimitResult[]; stamp?: string } | null> {
  const { limits, log } = c.get('services');
  try {
    return orgId ? await limits.checkAndReadStamp(checks, orgStamp(orgId)) : { results: await limits.check(checks) };
  } catch (err) {
    log.warn('request limits unavailable; failing open', { requestId: c.get('requestId'), error: errorText(err) });
    return null;
  }
}

/** 401; the key-taking paths that accept Bearer say so in `WWW-Authenticate` (RFC 6750, MCP authorization). */
function unauthorized(c: Context<AppEnv>, presented: string | undefined) {
  const bearerPath = c.req.path === '/mcp' || c.req.path.startsWith('/mcp/') || c.req.path.startsWith('/v1/agency/');
  if (bearerPath) c.header('WWW-Authenticate', 'Bearer');
  const missing = bearerPath ? 'missing key: send X-Service-Key or Authorization: Bearer' : 'missing X-Service-Key header';
  return new ApiError('unauthorized', presented ? 'invalid or revoked API key' : missing);
}

/** Counts only the per-IP limit (admin and documentation routes). */
export function limitByIp(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { clock } = c.get('services');
    const counted = await checkFailingOpen(c, [{ ...IP_LIMIT, id: c.get('clientIp') }]);
    if (!counted) return next();
    const [ip] = counted.results;
    if (!ip.success) {
      throw new ApiError('ip_rate_limit_exceeded', 'too many requests from this address', { retryAfter: retryAfter(ip, clock.now().getTime()) });
    }
    await next();
  };
}

export function requireScope(scope: Scope): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const refusal = scopeRefusal(c.get('auth'), scope);
    if (refusal === 'read_only') {
      // Same code as a missing scope (clients already handle it); the message says which fix applies.
      throw new ApiError('insufficient_scope', `this key is read-only: it may not use the ${scope} scope, which changes data`);
    }
    if (refusal) throw new ApiError('insufficient_scope', `this key lacks the ${scope} scope`);
    await next();
  };
}

/** CRM and agency routes also need the organization's feature switched on. */
export function requireFeature(feature: 'crm' | 'agency_tools' | 'studio'): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!c.get('auth').features[feature]) throw new ApiError('feature_not_enabled', `the ${feature} feature is not enabled for this organization`);
    await next();
  };
}
