import type { Group } from '../../lib/http/env';
import { errors, json, jsonBody } from '../../lib/http/openapi';
import { keyRoute } from '../../lib/http/route';
import { setWebhookActive } from '../../lib/webhooks/manage';
import { UpdateWebhookBody, WebhookIdParam, WebhookResponse } from './schema';

const route = keyRoute('webhooks.manage', {
  method: 'patch',
  path: '/v1/webhooks/{id}',
  tags: ['webhooks'],
  summary: 'Enable or disable a webhook; re-enabling resets failure_count and clears disabled_reason (the secret stays)',
  request: { params: WebhookIdParam, body: jsonBody(UpdateWebhookBody) },
  responses: { 200: json(WebhookResponse), ...errors([404, 'not_found']) },
});

export function registerUpdateWebhook(app: Group) {
  app.openapi(route, async (c) => {
    const { db, clock } = c.get('services');
    const webhook = await setWebhookActive({ db, auth: c.get('auth'), id: c.req.valid('param').id, isActive: c.req.valid('json').is_active, now: clock.now() });
    return c.json({ webhook } as never, 200);
  });
}
