import type { Group } from '../../lib/http/env';
import { errors, json, jsonBody } from '../../lib/http/openapi';
import { keyRoute } from '../../lib/http/route';
import { updateWebhook } from '../../lib/webhooks/manage';
import { UpdateWebhookBody, WebhookIdParam, WebhookResponse } from './schema';

const route = keyRoute('webhooks.manage', {
  method: 'patch',
  path: '/v1/webhooks/{id}',
  tags: ['webhooks'],
  summary:
    'Change a webhook: name, url (checked like at creation), events, is_active. Re-enabling (is_active: true) resets failure_count and clears disabled_reason; the secret never changes',
  request: { params: WebhookIdParam, body: jsonBody(UpdateWebhookBody) },
  responses: { 200: json(WebhookResponse), ...errors([404, 'not_found']) },
});

export function registerUpdateWebhook(app: Group) {
  app.openapi(route, async (c) => {
    const services = c.get('services');
    const webhook = await updateWebhook({ services, auth: c.get('auth'), id: c.req.valid('param').id, input: c.req.valid('json'), now: services.clock.now() });
    return c.json({ webhook } as never, 200);
  });
}
