import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../errors';
import type { AppEnv } from '../http/env';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

const hostName = (host: string) => (host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]).toLowerCase();

/**
 * The tool server's transport rules, before the key is looked at (agency-operator.md §1): a Host that is not the
 * service's own (PUBLIC_BASE_URL's host; any loopback host when it is unset) or an Origin not listed in
 * MCP_ALLOWED_ORIGINS is 403 (a page on another site must not drive a local tool server through DNS rebinding);
 * GET and DELETE are 405 (stateless: no stream to open, no session to end); a POST that is not JSON is 415.
 */
export function mcpTransportGuard(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { config } = c.get('services');
    const host = c.req.header('host');
    if (host) {
      const expected = config.PUBLIC_BASE_URL ? new URL(config.publicBaseUrl).host.toLowerCase() : null;
      const ok = expected ? host.toLowerCase() === expected || hostName(host) === hostName(expected) : LOOPBACK.has(hostName(host));
      if (!ok) throw new ApiError('forbidden_host', `Host ${JSON.stringify(host)} is not this service's host`);
    }
    const origin = c.req.header('origin');
    if (origin !== undefined && !config.MCP_ALLOWED_ORIGINS.includes(origin.replace(/\/$/, ''))) {
      throw new ApiError('forbidden_origin', `Origin ${JSON.stringify(origin)} is not listed in MCP_ALLOWED_ORIGINS`);
    }
    if (c.req.method !== 'POST') {
      c.header('Allow', 'POST');
      throw new ApiError('method_not_allowed', `${c.req.method} is not allowed on ${c.req.path}: the tool server is stateless; use POST`);
    }
    const type = (c.req.header('content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'application/json') throw new ApiError('unsupported_media_type', 'body: Content-Type must be application/json');
    await next();
  };
}
