import { OpenAPIHono } from '@hono/zod-openapi';
import type { AuthContext } from '../auth/keys';
import type { Services } from '../services';
import { validationError } from './validation';

export type AppEnv = {
  Bindings: Record<string, unknown>;
  Variables: { services: Services; auth: AuthContext; requestId: string; clientIp: string };
};

/** A resource group: its routes only. The platform adds auth, limits and the error envelope around it. */
export function newGroup() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error, result.target);
    },
  });
}
export type Group = ReturnType<typeof newGroup>;
