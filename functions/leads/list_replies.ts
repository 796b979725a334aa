import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv, Group } from '../../lib/http/env';
import { errors, json } from '../../lib/http/openapi';
import { listRepliesAnswer, requireListingScope } from '../../lib/leads/reply_listing';
import { ListRepliesQuery, ReplyListResponse } from './schema';
import { ReviewQueueResponse } from './sending_schema';

// One path, two listings (core §4/§5, operator §4): `status=queued` (alias `in_review`) is the review queue and
// needs replies.approve; any other listing of replies is a read (leads.read). The scope follows the status asked
// for, so the route declares both requirements as alternatives (OpenAPI: either security requirement suffices).

/** The scope check, before validation like every route's: an unknown status needs leads.read, then is a 400. */
function requireScopeOfListing(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    requireListingScope(c.get('auth'), c.req.query('status'));
    await next();
  };
}

const route = createRoute({
  method: 'get',
  path: '/v1/replies',
  tags: ['replies'],
  summary:
    'List replies, newest first, with their lead, campaign and status (leads.read); status=queued (alias in_review) lists the review queue instead: drafts waiting for approval, oldest first, with the reply they answer (replies.approve)',
  security: [{ ServiceKey: ['leads.read'] }, { ServiceKey: ['replies.approve'] }],
  middleware: [requireScopeOfListing()] as const,
  request: { query: ListRepliesQuery },
  responses: { 200: json(z.union([ReplyListResponse, ReviewQueueResponse])), ...errors([404, 'not_found: client_id is not a client of this organization (or not the key\'s client)']) },
});

export function registerListReplies(app: Group) {
  app.openapi(route, async (c) => {
    // The answer is built by the verb the list_pending_replies tool calls too.
    return c.json((await listRepliesAnswer({ db: c.get('services').db, auth: c.get('auth'), query: c.req.valid('query') })) as never, 200);
  });
}
