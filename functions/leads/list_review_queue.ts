import type { Group } from '../../lib/http/env';
import { errors, json, paginationMeta } from '../../lib/http/openapi';
import { keyRoute } from '../../lib/http/route';
import { listReviewQueue } from '../../lib/sending';
import { tenantOf } from '../../lib/tenancy';
import { ReviewQueueQuery, ReviewQueueResponse } from './sending_schema';

const route = keyRoute('replies.approve', {
  method: 'get',
  path: '/v1/replies',
  tags: ['replies'],
  summary: 'The review queue: drafts waiting for approval (status=queued, alias in_review), oldest first, with the reply they answer',
  request: { query: ReviewQueueQuery },
  responses: { 200: json(ReviewQueueResponse), ...errors() },
});

export function registerListReviewQueue(app: Group) {
  app.openapi(route, async (c) => {
    const q = c.req.valid('query');
    const { items, total } = await listReviewQueue({ db: c.get('services').db, tenant: tenantOf(c.get('auth')), limit: q.limit, offset: q.offset });
    return c.json({ replies: items, ...paginationMeta(items.length, total, q.limit, q.offset) }, 200);
  });
}
