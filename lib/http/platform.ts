import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { requestId } from 'hono/request-id';
import { secureHeaders } from 'hono/secure-headers';
import { timeout } from 'hono/timeout';
import { ApiError, envelope } from '../errors';
import { dispatchAfterWrites } from '../webhooks/after_write';
import type { Services } from '../services';
import { authenticate, limitByIp } from './auth';
import { renderDocsPage } from './docs_page';
import type { AppEnv, Group } from './env';
import { handleError } from './errors';
import { rejectNulCharacters } from './nul_guard';

export const MAX_BODY_BYTES = 50 * 1024;
/** Sending tools post whole HTML mails with their quoted history: the inbound webhook takes up to 1 MB. */
export const MAX_INBOUND_BODY_BYTES = 1024 * 1024;
/** Sending tools' reply webhooks: authenticated by their source secret (functions/inbound), not by an API key. */
const isInboundPath = (path: string) => path.startsWith('/v1/inbound/');
export const REQUEST_TIME_LIMIT_MS = 30_000;

export type PlatformOptions = {
  groups: Group[];
  /** Services for this request, and an optional clean-up to run after it (Workers close their Pool). */
  services: (c: Context<AppEnv>) => Promise<{ services: Services; dispose?: () => Promise<void> }>;
  /** The client address as the runtime knows it (socket under Node, CF-Connecting-IP on Workers). */
  socketIp: (c: Context<AppEnv>) => string | undefined;
  /** The hard request limit; 30 s in every deployment, shorter only where a test needs to see it fire. */
  timeLimitMs?: number;
};

/**
 * One Hono app around one or more resource groups: request id, services, the 50 KB body limit, the 30 s
 * request limit, auth and rate limits, the error envelope, /healthz, /openapi.json and /docs.
 */
export function createPlatform(opts: PlatformOptions) {
  const app = new OpenAPIHono<AppEnv>();
  app.onError(handleError);
  app.notFound((c) => c.json(envelope('not_found', `no route for ${c.req.method} ${c.req.path}`), 404));

  app.use('*', requestId({ headerName: 'X-Request-Id' }));
  // Every answer, errors included: HSTS, nosniff, no framing, no referrer, and a CSP that allows nothing but the
  // inline style of /docs. API answers carry tenant data and, once, new keys and secrets: no cache may keep them.
  app.use(
    '*',
    secureHeaders({
      contentSecurityPolicy: { defaultSrc: ["'none'"], styleSrc: ["'unsafe-inline'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
      xFrameOptions: 'DENY',
    }),
  );
  app.use('*', async (c, next) => {
    await next();
    if (c.req.path !== '/healthz' && c.req.path !== '/openapi.json' && c.req.path !== '/docs') c.header('Cache-Control', 'no-store');
  });
  app.use('*', async (c, next) => {
    const { services, dispose } = await opts.services(c);
    c.set('services', services);
    const forwarded = services.config.TRUST_PROXY ? c.req.header('x-forwarded-for')?.split(',')[0]?.trim() : undefined;
    c.set('clientIp', forwarded || opts.socketIp(c) || 'unknown');
    const started = Date.now();
    try {
      await next();
    } finally {
      // The access log: ids, route and outcome only; never headers, bodies or query values.
      services.log.info('request', {
        requestId: c.get('requestId'),
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Date.now() - started,
        keyId: c.get('auth')?.keyId,
      });
      if (dispose) {
        const done = dispose().catch(() => undefined);
        try {
          c.executionCtx.waitUntil(done);
        } catch {
          await done; // no execution context under Node
        }
      }
    }
  });
  // After a write that may have committed outbox events, the webhook dispatcher runs now (not at the sweep).
  app.use('*', dispatchAfterWrites());
  app.use('*', timeout(opts.timeLimitMs ?? REQUEST_TIME_LIMIT_MS, () => new ApiError('request_timeout', 'request exceeded the 30 second limit') as never));
  const limitBody = (maxSize: number) =>
    bodyLimit({
      maxSize,
      onError: () => {
        throw new ApiError('payload_too_large', `request body exceeds ${maxSize / 1024} KB`);
      },
    });
  const apiBodyLimit = limitBody(MAX_BODY_BYTES);
  const inboundBodyLimit = limitBody(MAX_INBOUND_BODY_BYTES);
  app.use('*', (c, next) => (isInboundPath(c.req.path) ? inboundBodyLimit(c, next) : apiBodyLimit(c, next)));

  app.use('*', rejectNulCharacters());

  app.get('/healthz', (c) => c.json({ ok: true }));
  const keyAuth = authenticate();
  app.use('/v1/*', (c, next) => (isInboundPath(c.req.path) ? next() : keyAuth(c, next)));
  app.use('/admin/*', limitByIp());
  app.use('/openapi.json', limitByIp());
  app.use('/docs', limitByIp());

  for (const group of opts.groups) app.route('/', group);

  app.openAPIRegistry.registerComponent('securitySchemes', 'ServiceKey', { type: 'apiKey', in: 'header', name: 'X-Service-Key' });
  app.openAPIRegistry.registerComponent('securitySchemes', 'AdminToken', { type: 'http', scheme: 'bearer' });
  app.openAPIRegistry.registerComponent('securitySchemes', 'InboundSecret', { type: 'apiKey', in: 'header', name: 'x-inbound-secret' });
  app.openAPIRegistry.registerComponent('securitySchemes', 'InboundBearer', { type: 'http', scheme: 'bearer' });
  const document = () =>
    app.getOpenAPI31Document({
      openapi: '3.1.0',
      info: { title: 'Reply Intelligence Service', version: '1.0.0', description: 'Core REST API, admin API and CRM API.' },
    });
  let cached: ReturnType<typeof document> | undefined;
  app.get('/openapi.json', (c) => c.json((cached ??= document())));
  app.get('/docs', (c) => c.html(renderDocsPage((cached ??= document()) as never)));
  return app;
}
