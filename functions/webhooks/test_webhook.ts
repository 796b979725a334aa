import type { Group } from '../../lib/http/env';
import { errors, json } from '../../lib/http/openapi';
import { keyRoute } from '../../lib/http/route';
import { testWebhook } from '../../lib/webhooks/manual';
import { ManualDelivery, WebhookIdParam } from './schema';

const route = keyRoute('webhooks.manage', {
  method: 'post',
  path: '/v1/webhooks/{id}/test',
  tags: ['webhooks'],
  summary: 'Send a signed test.ping to this endpoint now (also while disabled) and report what it answered',
  description: 'One attempt, no retries; it shows in the deliveries log but never changes failure_count.',
  request: { params: WebhookIdParam },
  responses: { 200: json(ManualDelivery), ...errors([404, 'not_found']) },
});

export function registerTestWebhook(app: Group) {
  app.openapi(route, async (c) => {
    return c.json((await testWebhook({ services: c.get('services'), auth: c.get('auth'), id: c.req.valid('param').id })) as never, 200);
  });
}
