import { createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { gate } from '../../lib/agency/gate';
import type { Operation } from '../../lib/agency/operation';
import type { AppEnv, Group } from '../../lib/http/env';
import { errors, json, jsonBody } from '../../lib/http/openapi';
import { callOf } from './call';

const mask = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, true as const])) as never;

/** The gate before validation, like every route's scope check (agency-operator.md §2 gate order). */
const gateOf = (op: Operation): MiddlewareHandler<AppEnv> => async (c, next) => {
  gate(op, c.get('auth'));
  await next();
};

/**
 * Serves one operation as REST: path parameters from the path, the other arguments from the query (GET) or the
 * JSON body. The handler only merges them and calls the operation, as the tool does.
 */
export function registerOperation(app: Group, op: Operation) {
  const input = op.input as z.ZodObject;
  const params = input.pick(mask(op.pathParams));
  const rest = input.omit(mask(op.pathParams));
  const hasBody = op.method !== 'GET' && op.method !== 'DELETE';
  const route = createRoute({
    method: op.method.toLowerCase() as 'get',
    path: op.path,
    tags: [`agency: ${op.toolset}`],
    operationId: op.name,
    summary: op.summary,
    description: describe(op),
    security: [{ ServiceKey: [op.scope] }],
    middleware: [gateOf(op)] as const,
    request: {
      ...(op.pathParams.length ? { params: params as never } : {}),
      ...(hasBody ? { body: jsonBody(rest as never) } : Object.keys(rest.shape).length ? { query: rest as never } : {}),
    },
    responses: {
      200: json(op.output as never),
      ...(op.name === 'create_client' ? { 201: json(op.output as never, 'Created') } : {}),
      ...errors([403, 'insufficient_scope / feature_not_enabled / studio_not_enabled / read_only_key / demo_org'], [404, 'not_found']),
    },
  });
  app.openapi(route, async (c) => {
    const v = (target: string) => c.req.valid(target as never) as Record<string, unknown>;
    const args = { ...(op.pathParams.length ? v('param') : {}), ...(hasBody ? v('json') : Object.keys(rest.shape).length ? v('query') : {}) };
    const result = await op.run(callOf(c, 'rest'), args as never);
    return c.json(result.body as never, (result.status ?? 200) as 200);
  });
}

function describe(op: Operation) {
  const flags = [
    `Tool: \`${op.restOnly ? '(REST only)' : op.name}\`.`,
    `Scope: \`${op.scope}\`.`,
    op.studio ? 'Needs the Studio module.' : null,
    op.twoStep ? 'Two steps: without `confirm_token` it answers a preview and a token; repeat with the token to apply.' : null,
    op.paid ? 'Paid: the preview states the credits.' : null,
  ].filter(Boolean);
  return [op.description, '', flags.join(' ')].join('\n');
}
