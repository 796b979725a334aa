import type { Group } from '../../lib/http/env';
import { errors, json } from '../../lib/http/openapi';
import { keyRoute } from '../../lib/http/route';
import { deleteWebhook } from '../../lib/webhooks/manage';
import { DeleteWebhookResponse, WebhookIdParam } from './schema';

const route = keyRoute('webhooks.manage', {
  method: 'delete',
  path: '/v1/webhooks/{id}',
  tags: ['webhooks'],
  summary: 'Delete a webhook permanently, with its pending deliveries',
  request: { params: WebhookIdParam },
  responses: { 200: json(DeleteWebhookResponse), ...errors([404, 'not_found']) },
});

export function registerDeleteWebhook(app: Group) {
  app.openapi(route, async (c) => {
    const { db, clock } = c.get('services');
    return c.json((await deleteWebhook({ db, auth: c.get('auth'), id: c.req.valid('param').id, now: clock.now() })) as never, 200);
  });
}
