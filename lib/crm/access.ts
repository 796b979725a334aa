import type { MiddlewareHandler } from 'hono';
import type { AuthContext } from '../auth/keys';
import { ApiError } from '../errors';
import type { AppEnv } from '../http/env';
import type { Limits } from '../limits/port';
import type { CrmTenant } from './view';

// core §5: 60 CRM writes per minute per key, counted in the limits port (Upstash in production).
export const CRM_WRITES_PER_MINUTE = 60;
const CRM_WRITE_WINDOW_SEC = 60;

const notClientLocked = () => new ApiError('feature_not_enabled', 'the CRM API needs a key locked to one client');

/** CRM routes: only keys locked to one client (core §4); any other key is refused like a disabled feature. */
export function requireClientLockedKey(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!c.get('auth').clientId) throw notClientLocked();
    await next();
  };
}

export function crmTenantOf(auth: Pick<AuthContext, 'orgId' | 'clientId'>): CrmTenant {
  if (!auth.clientId) throw notClientLocked();
  return { orgId: auth.orgId, clientId: auth.clientId };
}

/** Counts one CRM write for the key; the 61st in a minute is 429 crm_write_rate_limited with Retry-After 60. */
export async function claimCrmWrite(limits: Limits, keyId: string) {
  const [r] = await limits.check([{ name: 'crm_write', id: keyId, limit: CRM_WRITES_PER_MINUTE, windowSec: CRM_WRITE_WINDOW_SEC }]);
  if (!r.success) {
    throw new ApiError('crm_write_rate_limited', `this key may make at most ${CRM_WRITES_PER_MINUTE} CRM writes per minute`, { retryAfter: CRM_WRITE_WINDOW_SEC });
  }
}
