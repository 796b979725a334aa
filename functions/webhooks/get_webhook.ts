import type { Group } from '../../lib/http/env';
import { errors, json } from '../../lib/http/openapi';
import { keyRoute } from '../../lib/http/route';
import { findWebhook } from '../../lib/webhooks/manage';
import { webhookView } from '../../lib/webhooks/views';
import { WebhookIdParam, WebhookResponse } from './schema';

const route = keyRoute('webhooks.manage', {
  method: 'get',
  path: '/v1/webhooks/{id}',
  tags: ['webhooks'],
  summary: 'One webhook with its delivery health; never the secret',
  request: { params: WebhookIdParam },
  responses: { 200: json(WebhookResponse), ...errors([404, 'not_found']) },
});

export function registerGetWebhook(app: Group) {
  app.openapi(route, async (c) => {
    const row = await findWebhook(c.get('services').db, c.get('auth'), c.req.valid('param').id);
    return c.json({ webhook: webhookView(row) } as never, 200);
  });
}
