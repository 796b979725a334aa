import type { Scope } from '../../lib/auth/scopes';
import { requireClientLockedKey } from '../../lib/crm/access';
import { requireFeature } from '../../lib/http/auth';
import { keyRoute } from '../../lib/http/route';

type KeyRouteConfig = Parameters<typeof keyRoute>[1];

/**
 * A CRM route (core §4): its scope, then the organization's CRM feature, then a key locked to one client. The
 * last two refuse with 403 feature_not_enabled; a missing scope stays 403 insufficient_scope.
 */
export function crmRoute<R extends KeyRouteConfig>(scope: Extract<Scope, 'crm.read' | 'crm.write'>, r: R) {
  return keyRoute(scope, { ...r, tags: ['crm'], middleware: [requireFeature('crm'), requireClientLockedKey()] });
}
