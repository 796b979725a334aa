import { TrieRouter } from 'hono/router/trie-router';

/** The order methods are listed in an `Allow` header. */
const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Which methods the app's routes answer on a path: the `Allow` header of a 405. Built from the app's own route
 * table (Hono's `app.routes`, method + pattern), so a Worker knows its group's routes and the Node server all of
 * them; middleware (method ALL) is not a route. HEAD is answered wherever GET is (Hono serves it from the GET
 * handler).
 */
export function allowedMethods(routes: ReadonlyArray<{ method: string; path: string }>): (path: string) => string[] {
  const router = new TrieRouter<string>();
  for (const { method, path } of routes) if (method !== 'ALL') router.add('ALL', path, method.toUpperCase());
  return (path) => {
    const found = new Set(router.match('GET', path)[0].map(([method]) => method));
    if (found.has('GET')) found.add('HEAD');
    return [...found].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  };
}

const rank = (method: string) => (ORDER.includes(method) ? ORDER.indexOf(method) : ORDER.length);
