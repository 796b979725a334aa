import { createRoute } from '@hono/zod-openapi';
import { errors } from '../../lib/http/openapi';
import { adminSecurity } from './schema';

type RouteConfig = Parameters<typeof createRoute>[0];

/** Admin routes share their tag, the bearer-token security and the common refusals. */
export function adminRoute<R extends Omit<RouteConfig, 'tags' | 'security'>>(r: R) {
  return createRoute({
    ...r,
    tags: ['admin'],
    security: adminSecurity,
    responses: { ...errors([404, 'not_found']), ...r.responses },
  } as R & { tags: string[]; security: typeof adminSecurity });
}
