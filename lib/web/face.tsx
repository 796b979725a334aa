import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { csrf } from 'hono/csrf';
import { HTTPException } from 'hono/http-exception';
import type { Config } from '../config';
import { ApiError } from '../errors';
import type { AppEnv } from '../http/env';
import type { Services } from '../services';
import { ProblemPage } from './layout';
import { consumeSignInLink, inspectSignInLink } from './links';
import { findSession, revokeSession, sameToken, SESSION_ABSOLUTE_MS, startSession, type WebSession } from './sessions';
import { SignInPage } from './sign_in_page';

// A "face" is one set of server-rendered pages behind one-time-link sign-in: the client portal now, the review desk
// next. The face owns its base path, cookie and pages; sign-in, sessions, CSRF and refusals are shared here, so a
// second face is a list of pages, not a second implementation.

export type PageArgs = {
  c: Context<AppEnv>;
  services: Services;
  params: Record<string, string>;
  base: string;
  now: Date;
  session: WebSession;
  /** Renders a refusal page with this status (the face's frame, the signed-in user's header). */
  problem(status: number, title: string, message: string): Response | Promise<Response>;
};

export type PageRoute = { method: 'GET' | 'POST'; pattern: string; handle(args: PageArgs): Response | Promise<Response> };

export type Face = {
  kind: 'portal' | 'desk';
  name: string;
  cookieName: string;
  /** The face's public URL (no trailing slash): its path is where the pages live. */
  url(config: Config): string;
  /** Where a new session lands, relative to the base. */
  home: string;
  /** The face's stylesheet (served at `${base}/assets/portal.css`). */
  css: string;
  pages: PageRoute[];
};

/**
 * The pages' Content-Security-Policy (the platform sets it on every answer markWebPage flagged): own-origin
 * stylesheet, forms and links only; no script at all, inline or not; no framing.
 */
export const WEB_PAGE_CSP = "default-src 'self'; script-src 'none'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const webPages = new WeakSet<Request>();
const markWebPage = (c: Context<AppEnv>) => webPages.add(c.req.raw);
/** Whether this request was answered by a face (lib/http/platform.ts gives it WEB_PAGE_CSP). */
export const isWebPage = (c: Context<AppEnv>) => webPages.has(c.req.raw);

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const isLoopback = (host: string) => LOOPBACK.has(host) || host.endsWith('.localhost');

// A malformed escape (`%E0%A4`) is no value this face knows: it falls to the "not found/not valid" answers.
const safeDecode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return '';
  }
};

type Matcher = { method: string; re: RegExp; names: string[]; handle: (a: PageArgs) => Response | Promise<Response> };

function compile(pattern: string) {
  const names: string[] = [];
  const re = new RegExp(`^${pattern.replace(/:([a-z_]+)/g, (_, n: string) => (names.push(n), '([^/]+)'))}$`);
  return { re, names };
}

function match(routes: Matcher[], method: string, rel: string) {
  let pathKnown = false;
  for (const r of routes) {
    const m = r.re.exec(rel);
    if (!m) continue;
    pathKnown = true;
    if (r.method === method || (method === 'HEAD' && r.method === 'GET')) {
      const params: Record<string, string> = {};
      r.names.forEach((n, i) => (params[n] = safeDecode(m[i + 1])));
      return { route: r, params, pathKnown };
    }
  }
  return { route: null, params: {}, pathKnown };
}

/** Where the face's pages live on this request, or null when the request is not for them. */
function baseOf(face: Face, config: Config, url: URL): string | null {
  return faceBaseFor(face.url(config), url);
}

/** The base path of a face published at `publicUrl` when `url` is one of its pages, else null (also lib/http). */
export function faceBaseFor(publicUrl: string, url: URL): string | null {
  const faceUrl = new URL(publicUrl);
  const base = faceUrl.pathname.replace(/\/$/, '');
  // A face at the root of its own host (PORTAL_URL=https://portal.example.com) answers only on that host.
  if (base === '') return url.host === faceUrl.host ? '' : null;
  return url.pathname === base || url.pathname.startsWith(`${base}/`) ? base : null;
}

/**
 * The face as one middleware of its group: requests under its base path are answered here (pages, sign-in,
 * sign-out, the stylesheet), every other request passes on. Routing happens per request because the base path
 * comes from configuration (PORTAL_URL), which a Worker only knows once a request arrives.
 */
export function faceMiddleware(face: Face): MiddlewareHandler<AppEnv> {
  const routes: Matcher[] = face.pages.map((p) => ({ method: p.method, ...compile(p.pattern), handle: p.handle }));
  return async (c, next) => {
    const services = c.get('services');
    const url = new URL(c.req.url);
    const base = services ? baseOf(face, services.config, url) : null;
    if (base === null) return next();
    markWebPage(c);
    const rel = url.pathname.slice(base.length) || '/';
    const now = services.clock.now();
    const page = (status: number, title: string, message: string, session?: WebSession | null, link?: { href: string; text: string }) =>
      c.html(
        <ProblemPage base={base} faceName={face.name} title={title} message={message} link={link} signedInAs={session ? { name: session.user.name, csrfToken: session.csrfToken } : undefined} />,
        status as 400,
      );

    if (rel === '/assets/portal.css' && (c.req.method === 'GET' || c.req.method === 'HEAD')) {
      return c.body(face.css, 200, { 'Content-Type': 'text/css; charset=utf-8' });
    }
    if (rel === '/' && c.req.method === 'GET' && face.home !== '/') return c.redirect(`${base}${face.home}`, 303);

    // Every form post: the browser's Origin (or Sec-Fetch-Site) must be this site's. Link sign-in has no session
    // yet, so this is its only CSRF guard; every other form also carries the session's token (below).
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const allowed = new Set([url.origin, new URL(face.url(services.config)).origin]);
      try {
        await csrf({ origin: (origin) => allowed.has(origin) })(c, async () => undefined);
      } catch (err) {
        if (!(err instanceof HTTPException)) throw err;
        return page(403, 'Form refused', 'This form was not sent from this site, so nothing was done. Go back, reload the page and try again.');
      }
    }

    const signIn = /^\/sign-in\/([^/]+)$/.exec(rel);
    if (signIn) return signInRoute(c, face, services, base, safeDecode(signIn[1]), now, page);

    const { route, params, pathKnown } = match(routes, c.req.method, rel);
    const signOut = rel === '/sign-out';
    if (!route && !signOut) {
      if (pathKnown) return page(405, 'Not available', `This page cannot be reached with ${c.req.method}.`);
      return page(404, 'Page not found', 'There is no page at this address.');
    }

    const cookie = getCookie(c, face.cookieName);
    const session = await findSession(services.db, cookie, now, face.kind);
    if (!session) {
      if (cookie) deleteCookie(c, face.cookieName, { path: base || '/' });
      return page(401, 'Please sign in', 'Open the sign-in link you received by email. Links work once and for 15 minutes; ask your agency for a new one if yours has expired.');
    }
    if (c.req.method === 'POST') {
      let form: Record<string, string> | null;
      try {
        form = await readForm(c);
      } catch (err) {
        if (err instanceof ApiError && err.status < 500) return page(400, 'Cannot read this form', err.message, session);
        throw err;
      }
      if (!form || !sameToken(form._csrf, session.csrfToken)) {
        return page(403, 'Form refused', 'This form has expired or was not sent from this page, so nothing was done. Reload the page and try again.', session);
      }
    }
    if (signOut) {
      if (c.req.method !== 'POST') return page(405, 'Not available', 'Sign out with the button on any page.', session);
      await revokeSession(services.db, cookie, now);
      deleteCookie(c, face.cookieName, { path: base || '/' });
      return page(200, 'Signed out', 'You are signed out. To come back, open a new sign-in link.');
    }
    const problem = (status: number, title: string, message: string) => page(status, title, message, session);
    try {
      return await route!.handle({ c, services, params, base, now, session, problem });
    } catch (err) {
      if (err instanceof ApiError && err.status < 500) {
        const title = err.status === 404 ? 'Not found' : err.status === 409 ? 'Changed meanwhile' : err.status === 429 ? 'Too many changes' : 'Cannot do that';
        return problem(err.status, title, err.message);
      }
      throw err;
    }
  };
}

/** The parsed form body, or null when the body is not a form (a JSON post is no form post). */
export async function readForm(c: Context<AppEnv>): Promise<Record<string, string> | null> {
  const type = c.req.header('content-type') ?? '';
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(type)) return null;
  let body: Record<string, unknown>;
  try {
    body = await c.req.parseBody();
  } catch {
    // A multipart body without its boundary, or cut short: no form this site can read (never a 500).
    throw new ApiError('validation_error', 'The form could not be read. Reload the page and try again.');
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(body)) if (typeof v === 'string') out[k] = v;
  // PostgreSQL stores no NUL in text: refused here with a sentence, as the JSON API refuses it (lib/http/nul_guard).
  if (Object.values(out).some((v) => v.includes('\0'))) throw new ApiError('validation_error', 'The form holds a NUL character, which cannot be saved. Remove it and try again.');
  return out;
}

const LINK_REFUSAL = {
  unknown: { status: 400, title: 'This link does not work', message: 'This sign-in link is not valid. Check that the whole link was opened, or ask your agency for a new one.' },
  used: { status: 410, title: 'This link was already used', message: 'Each sign-in link works once. Ask your agency for a new link.' },
  expired: { status: 410, title: 'This link has expired', message: 'Sign-in links work for 15 minutes. Ask your agency for a new link.' },
} as const;

/**
 * GET shows a button, POST signs in: mail scanners that open links must not use them up. A successful POST revokes
 * any session the browser had and starts a new one (new id: a planted cookie is never promoted).
 */
async function signInRoute(
  c: Context<AppEnv>,
  face: Face,
  services: Services,
  base: string,
  token: string,
  now: Date,
  page: (status: number, title: string, message: string) => Response | Promise<Response>,
) {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') {
    const state = await inspectSignInLink(services.db, token, now, face.kind);
    if (!state.ok) return page(LINK_REFUSAL[state.reason].status, LINK_REFUSAL[state.reason].title, LINK_REFUSAL[state.reason].message);
    return c.html(<SignInPage base={base} faceName={face.name} action={`${base}/sign-in/${token}`} />);
  }
  if (c.req.method !== 'POST') return page(405, 'Not available', 'Use the button on the sign-in page.');
  const state = await consumeSignInLink(services.db, token, now, face.kind);
  if (!state.ok) return page(LINK_REFUSAL[state.reason].status, LINK_REFUSAL[state.reason].title, LINK_REFUSAL[state.reason].message);
  await revokeSession(services.db, getCookie(c, face.cookieName), now);
  const { cookieValue } = await startSession(services.db, state.userId, now);
  setCookie(c, face.cookieName, cookieValue, {
    httpOnly: true,
    // Secure unless the browser is on loopback: an https face URL always wins, so a proxy that forwards to
    // 127.0.0.1 without the Host header cannot drop the flag in production.
    secure: new URL(face.url(services.config)).protocol === 'https:' || !isLoopback(new URL(c.req.url).hostname),
    sameSite: 'Lax',
    path: base || '/',
    maxAge: SESSION_ABSOLUTE_MS / 1000,
  });
  return c.redirect(`${base}${face.home}`, 303);
}
