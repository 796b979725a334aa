import { bodyLimit } from 'hono/body-limit';
import type { MiddlewareHandler } from 'hono';
import { MAX_BRIDGE_BODY_BYTES } from '../bridge/rows';
import { ApiError } from '../errors';

// How large a request body may be, by path. The core API takes 50 KB (core spec §8); the routes below carry whole
// mails or lists and say why. The first rule that matches wins.
export const MAX_BODY_BYTES = 50 * 1024;

type Rule = { why: string; match: (path: string) => boolean; maxBytes: number };

const KB = 1024;
const MB = 1024 * KB;

const RULES: Rule[] = [
  { why: "sending tools' reply webhooks carry whole HTML mails with their quoted history", match: (p) => p.startsWith('/v1/inbound/'), maxBytes: MB },
  { why: 'a tool call may carry a whole lead import (agency-operator.md §1)', match: (p) => p === '/mcp' || p.startsWith('/mcp/'), maxBytes: 2 * MB },
  {
    why: 'agency routes that carry a chunk of rows or entries (agency-operator.md §1)',
    match: (p) => /^\/v1\/agency\/clients\/[^/]+\/(leads\/(import|enrich)|suppressions\/(preview|import))$/.test(p),
    maxBytes: 2 * MB,
  },
  {
    why: "admin lists: a table push's 10,000 lead ids (~390 KB), a sequencer snapshot of up to 100,000 addresses (~3 MB)",
    match: (p) => /^\/admin\/v1\/clients\/[^/]+\/(table-pushes|sequencer-snapshot)$/.test(p),
    maxBytes: 4 * MB,
  },
  {
    // URL-encoding takes up to 9 bytes per character (CJK), and the desk accepts a 40,000-character reply.
    why: "the portal's and desk's form posts: a reply or note typed in any script, URL-encoded",
    match: (p) => !p.startsWith('/v1/') && !p.startsWith('/admin/') && /\/(desk\/replies\/[^/]+\/(approve|edit|reject|skip)|leads\/[^/]+)$/.test(p),
    maxBytes: 512 * KB,
  },
  { why: 'table tools post rows to the bridge (agency spec §8: 256 KB)', match: (p) => p.startsWith('/v1/bridge/'), maxBytes: MAX_BRIDGE_BODY_BYTES },
];

const limitBody = (maxSize: number): MiddlewareHandler =>
  bodyLimit({
    maxSize,
    onError: () => {
      throw new ApiError('payload_too_large', `request body exceeds ${maxSize / 1024} KB`);
    },
  });

/** One middleware applying the path's limit (each limit's middleware built once). */
export function bodyLimits(): MiddlewareHandler {
  const byRule = RULES.map((r) => ({ match: r.match, limit: limitBody(r.maxBytes) }));
  const fallback = limitBody(MAX_BODY_BYTES);
  return (c, next) => (byRule.find((r) => r.match(c.req.path))?.limit ?? fallback)(c, next);
}
