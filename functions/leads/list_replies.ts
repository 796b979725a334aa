import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { Scope } from '../../lib/auth/scopes';
import { ApiError } from '../../lib/errors';
import { requireScope } from '../../lib/http/auth';
import type { AppEnv, Group } from '../../lib/http/env';
import { errors, json, paginationMeta } from '../../lib/http/openapi';
import { listReplies } from '../../lib/leads/list_replies';
import { listReviewQueue } from '../../lib/sending';
import { tenantOf } from '../../lib/tenancy';
import { ListRepliesQuery, ReplyListResponse } from './schema';
import { ReviewQueueResponse } from './sending_schema';

// One path, two listings (core §4/§5, operator §4): `status=queued` (alias `in_review`) is the review queue and
// needs replies.approve; any other listing of replies is a read (leads.read). The scope follows the status asked
// for, so the route declares both requirements as alternatives (OpenAPI: either security requirement suffices).
const QUEUE = new Set(['queued', 'in_review']);
const isQueue = (status: string | undefined) => status !== undefined && QUEUE.has(status);
const scopeOf = (status: string | undefined): Scope => (isQueue(status) ? 'replies.approve' : 'leads.read');

/** The scope check, before validation like every route's: an unknown status needs leads.read, then is a 400. */
function requireScopeOfListing(): MiddlewareHandler<AppEnv> {
  return (c, next) => requireScope(scopeOf(c.req.query('status')))(c, next);
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
  responses: { 200: json(z.union([ReplyListResponse, ReviewQueueResponse])), ...errors() },
});

export function registerListReplies(app: Group) {
  app.openapi(route, async (c) => {
    const q = c.req.valid('query');
    const { db } = c.get('services');
    const tenant = tenantOf(c.get('auth'));
    if (isQueue(q.status)) {
      // The queue is worked oldest first in full; it has no reply filters (refused rather than silently ignored).
      for (const name of ['campaign_id', 'since'] as const) {
        if (q[name] !== undefined) throw new ApiError('validation_error', `${name}: not available for the review queue (status=${q.status})`);
      }
      const { items, total } = await listReviewQueue({ db, tenant, limit: q.limit, offset: q.offset });
      return c.json({ replies: items, ...paginationMeta(items.length, total, q.limit, q.offset) } as never, 200);
    }
    const { items, total } = await listReplies({
      db,
      tenant,
      input: { status: q.status as 'unanswered' | 'sent' | 'skipped' | undefined, campaignId: q.campaign_id, since: q.since ? new Date(q.since) : undefined, limit: q.limit, offset: q.offset },
    });
    return c.json({ replies: items, ...paginationMeta(items.length, total, q.limit, q.offset) } as never, 200);
  });
}
