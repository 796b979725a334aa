import { createRoute } from '@hono/zod-openapi';
import type { Scope } from '../auth/scopes';
import { requireScope } from './auth';

type RouteConfig = Parameters<typeof createRoute>[0];

/**
 * A route behind `X-Service-Key`. The scope is declared once: it becomes the route's middleware and its
 * OpenAPI security requirement (OpenAPI 3.1 lets an apiKey requirement list role names), which the
 * generated auth and isolation tests read to know what each route needs.
 */
export function keyRoute<R extends Omit<RouteConfig, 'security'>>(scope: Scope | null, r: R) {
  return createRoute({
    ...r,
    security: [{ ServiceKey: scope ? [scope] : [] }],
    middleware: [...(scope ? [requireScope(scope)] : []), ...((r.middleware as unknown[] | undefined) ?? [])],
  } as R & { security: { ServiceKey: string[] }[] });
}
