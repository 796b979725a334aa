import type { Group } from '../../lib/http/env';
import { errors, json, jsonBody } from '../../lib/http/openapi';
import { keyRoute } from '../../lib/http/route';
import { redeliverEvent } from '../../lib/webhooks/manual';
import { ManualDelivery, RedeliverBody, WebhookIdParam } from './schema';

const route = keyRoute('webhooks.manage', {
  method: 'post',
  path: '/v1/webhooks/{id}/redeliver',
  tags: ['webhooks'],
  summary: 'Send one event to this endpoint again now: the same event id and body, signed anew',
  description:
    'Also replays an event the endpoint never received (sent before it existed or while it was disabled). One attempt; on success a pending or failed delivery becomes succeeded. Never changes failure_count.',
  request: { params: WebhookIdParam, body: jsonBody(RedeliverBody) },
  responses: { 200: json(ManualDelivery), ...errors([404, 'not_found']) },
});

export function registerRedeliver(app: Group) {
  app.openapi(route, async (c) => {
    const result = await redeliverEvent({ services: c.get('services'), auth: c.get('auth'), id: c.req.valid('param').id, eventId: c.req.valid('json').event_id });
    return c.json(result as never, 200);
  });
}
