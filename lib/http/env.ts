import { OpenAPIHono } from '@hono/zod-openapi';
import type { AuthContext } from '../auth/keys';
import type { Services } from '../services';
import { refuseRepeatedQuery, validationError } from './validation';

export type AppEnv = {
  Bindings: Record<string, unknown>;
  Variables: { services: Services; auth: AuthContext; requestId: string; clientIp: string };
};

/** A resource group: its routes only. The platform adds auth, limits and the error envelope around it. */
export function newGroup() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (!result.success) throw validationError(result.error, result.target, (result as { data?: unknown }).data);
      if (result.target === 'query') refuseRepeatedQuery(c, result.data);
    },
  });
}
export type Group = ReturnType<typeof newGroup>;
