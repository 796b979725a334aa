import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { requestId } from 'hono/request-id';
import { secureHeaders } from 'hono/secure-headers';
import { timeout } from 'hono/timeout';
import { bodyLimits } from './body_limits';
import { ApiError, envelope } from '../errors';
import { dispatchAfterWrites } from '../webhooks/after_write';
import type { Services } from '../services';
import { allowedMethods } from './allowed_methods';
import { authenticate, limitByIp } from './auth';
import { SCALAR_PATH, scalarScript } from './docs_assets';
import { withExamples } from './examples';
import { renderDocsPage } from './docs_page';
import type { AppEnv, Group } from './env';
import { errorAnswer, handleError } from './errors';
import { rejectNulCharacters } from './nul_guard';
import { mcpTransportGuard } from '../mcp/guard';
import { faceBaseFor, isWebPage, WEB_PAGE_CSP } from '../web/face';
import { ProblemPage } from '../web/layout';
import { deskUrl, withoutSignInToken } from '../web/urls';

/** Reply webhooks (functions/inbound) and table-tool rows (functions/bridge) carry their own secret, not an API key. */
const isSecretAuthPath = (path: string) => path.startsWith('/v1/inbound/') || path.startsWith('/v1/bridge/');
export const REQUEST_TIME_LIMIT_MS = 30_000;

const API_TITLE = 'Reply Intelligence Service';
/** The reference's introduction (Markdown, shown first on /docs). */
const API_DESCRIPTION = [
  'Core REST API, admin API and CRM API.',
  '',
  '**Authentication.** Send your key in `X-Service-Key: svc_live_…` (`GET /v1/me` shows what it may do). The admin API takes `Authorization: Bearer <ADMIN_TOKEN>`.',
  '',
  '**Errors.** Every refusal is `{ "error": { "code", "message" } }`; a `validation_error` also lists each problem in `error.details` (`[{ path, message }]`). A wrong method on a known path is 405 `method_not_allowed` with an `Allow` header.',
  '',
  '**Limits.** 100 requests per minute per key by default (`X-RateLimit-*` headers) and 120 per minute per address; a 429 carries `Retry-After`.',
].join('\n');

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
  app.onError((err, c) => {
    const face = faceOfPath(c);
    return face ? refusalPage(err, c, face) : handleError(err, c);
  });
  // A known path asked with a method it does not have is a 405 naming the ones it has (RFC 9110 §15.5.6), in
  // every Worker and the Node server alike: the route table is the app's own, read once on first use.
  let methodsOf: ((path: string) => string[]) | undefined;
  app.notFound((c) => {
    methodsOf ??= allowedMethods(app.routes);
    const allowed = methodsOf(c.req.path);
    if (allowed.length === 0 || allowed.includes(c.req.method)) return c.json(envelope('not_found', `no route for ${c.req.method} ${c.req.path}`), 404);
    c.header('Allow', allowed.join(', '));
    return c.json(envelope('method_not_allowed', `${c.req.method} is not allowed on ${c.req.path}; use ${allowed.join(', ')}`), 405);
  });

  app.use('*', requestId({ headerName: 'X-Request-Id' }));
  // Every answer, errors included: HSTS, nosniff, no framing, no referrer, and a CSP that allows nothing; the /docs
  // page alone may run scripts, styles and requests of its own origin (the Scalar UI, /openapi.json, tried calls).
  // API answers carry tenant data and, once, new keys and secrets: no cache may keep them.
  const locked = ["'none'"];
  const apiHeaders = secureHeaders({
    contentSecurityPolicy: { defaultSrc: locked, frameAncestors: locked, baseUri: locked, formAction: locked },
    xFrameOptions: 'DENY',
  });
  const docsHeaders = secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: locked,
      scriptSrc: ["'self'"],
      // Scalar injects its stylesheet as a <style> element and styles elements inline.
      styleSrc: ["'self'", "'unsafe-inline'"],
      connectSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'", 'data:'],
      frameAncestors: locked,
      baseUri: locked,
      formAction: locked,
    },
    xFrameOptions: 'DENY',
  });
  app.use('*', async (c, next) => {
    if (c.req.path === '/docs') return docsHeaders(c, next);
    await apiHeaders(c, next);
    // The portal's and desk's pages (lib/web/face.tsx): own-origin stylesheet and forms, still no script or framing.
    if (isWebPage(c) || (c.res.headers.get('content-type')?.startsWith('text/html') && faceOfPath(c))) c.res.headers.set('Content-Security-Policy', WEB_PAGE_CSP);
  });
  app.use('*', async (c, next) => {
    await next();
    if (c.req.path !== '/healthz' && c.req.path !== '/openapi.json' && c.req.path !== '/docs' && c.req.path !== SCALAR_PATH) c.header('Cache-Control', 'no-store');
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
        path: withoutSignInToken(c.req.path),
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
  // The body limit of the path (lib/http/body_limits.ts): 50 KB unless a route carries mails or lists.
  app.use('*', bodyLimits());

  app.use('*', rejectNulCharacters());

  app.get('/healthz', (c) => c.json({ ok: true }));
  const keyAuth = authenticate();
  app.use('/v1/*', (c, next) => (isSecretAuthPath(c.req.path) ? next() : keyAuth(c, next)));
  // The tool server's transport rules come before the key: a rebinding page gets 403 whatever it sends.
  // Hono's `/mcp/*` also matches `/mcp` itself: one registration, or every request would count twice.
  app.use('/mcp/*', mcpTransportGuard(), keyAuth);
  app.use('/admin/*', limitByIp());
  app.use('/openapi.json', limitByIp());
  app.use('/docs', limitByIp());
  app.use('/docs/*', limitByIp());

  for (const group of opts.groups) app.route('/', group);

  app.openAPIRegistry.registerComponent('securitySchemes', 'ServiceKey', { type: 'apiKey', in: 'header', name: 'X-Service-Key' });
  app.openAPIRegistry.registerComponent('securitySchemes', 'AdminToken', { type: 'http', scheme: 'bearer' });
  app.openAPIRegistry.registerComponent('securitySchemes', 'InboundSecret', { type: 'apiKey', in: 'header', name: 'x-inbound-secret' });
  app.openAPIRegistry.registerComponent('securitySchemes', 'InboundBearer', { type: 'http', scheme: 'bearer' });
  const document = () =>
    withExamples(
      app.getOpenAPI31Document({
        openapi: '3.1.0',
        info: { title: API_TITLE, version: '1.0.0', description: API_DESCRIPTION },
      }),
    );
  let cached: ReturnType<typeof document> | undefined;
  app.get('/openapi.json', (c) => c.json((cached ??= document())));
  app.get('/docs', (c) => c.html(renderDocsPage(API_TITLE)));
  // The UI's script, versioned in the page's URL to it: a browser or CDN keeps it for a year.
  app.get(SCALAR_PATH, async (c) =>
    c.body(await scalarScript(), 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=31536000, immutable' }),
  );
  return app;
}

// Refusals raised before a face's page runs (a NUL in the URL, an oversized or non-UTF-8 body, the time limit) and
// failures a page did not answer itself leave as the face's own problem page with the same status, not the API's
// envelope. Decided by path: the face marks a request only once its middleware runs, after these checks.
const FACES = [
  { name: 'Client portal', url: (c: Context<AppEnv>) => c.get('services').config.portalUrl },
  { name: 'Review desk', url: (c: Context<AppEnv>) => deskUrl(c.get('services').config) },
];

/** The face whose pages live at this request's path (as lib/web/face.tsx routes them), or null. */
function faceOfPath(c: Context<AppEnv>): { name: string; base: string } | null {
  if (!c.get('services')) return null;
  const url = new URL(c.req.url);
  for (const face of FACES) {
    const base = faceBaseFor(face.url(c), url);
    if (base !== null) return { name: face.name, base };
  }
  return null;
}

const PAGE_REFUSALS: Record<number, [title: string, message: string]> = {
  400: ['Cannot read this request', 'The address or the form holds something this site cannot accept (such as a NUL character or text that is not UTF-8), so nothing was done.'],
  413: ['Too much to send', 'What was sent is larger than this site accepts, so nothing was saved. Shorten it and try again.'],
  415: ['Cannot read this form', 'What was sent is not a form this site can read, so nothing was done.'],
  504: ['This took too long', 'The page took too long to prepare and was stopped. Try again in a moment.'],
  503: ['Not available right now', 'A service this page needs is not available at the moment. Try again in a minute.'],
};

function refusalPage(err: Error, c: Context<AppEnv>, face: { name: string; base: string }) {
  const requestId = c.get('requestId') ?? 'unknown';
  // errorAnswer logs an unexpected failure with the request id, exactly as the API's handler does.
  const { status } = errorAnswer(err, requestId, withoutSignInToken(c.req.path), c.get('services')?.log);
  const [title, message] = PAGE_REFUSALS[status] ?? (status < 500 ? ['Cannot do that', 'This request was refused, so nothing was done.'] : ['Something went wrong', `Something went wrong on our side (request ${requestId}). Try again in a moment.`]);
  return c.html(ProblemPage({ base: face.base, faceName: face.name, title, message }), status as 400);
}
