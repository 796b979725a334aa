import type { Group } from '../../lib/http/env';
import { errors, json, paginationMeta } from '../../lib/http/openapi';
import { keyRoute } from '../../lib/http/route';
import { listAttempts } from '../../lib/webhooks/manual';
import { AttemptsQuery, AttemptsResponse, WebhookIdParam } from './schema';

const route = keyRoute('webhooks.manage', {
  method: 'get',
  path: '/v1/webhooks/{id}/deliveries',
  tags: ['webhooks'],
  summary: 'Recent delivery attempts to this endpoint, newest first: event id and kind, outcome, HTTP status, duration, error',
  request: { params: WebhookIdParam, query: AttemptsQuery },
  responses: { 200: json(AttemptsResponse), ...errors([404, 'not_found']) },
});

export function registerListDeliveries(app: Group) {
  app.openapi(route, async (c) => {
    const { limit, offset, event_id } = c.req.valid('query');
    const { items, total } = await listAttempts({ db: c.get('services').db, auth: c.get('auth'), id: c.req.valid('param').id, limit, offset, eventId: event_id });
    return c.json({ deliveries: items, ...paginationMeta(items.length, total, limit, offset) } as never, 200);
  });
}
