import type { Group } from '../../lib/http/env';
import { errors, json, jsonBody } from '../../lib/http/openapi';
import { keyRoute } from '../../lib/http/route';
import { createWebhook } from '../../lib/webhooks/manage';
import { CreateWebhookBody, CreateWebhookResponse } from './schema';

const route = keyRoute('webhooks.manage', {
  method: 'post',
  path: '/v1/webhooks',
  tags: ['webhooks'],
  summary: 'Register an endpoint; answers the whsec_ signing secret once. At most 10 per organization.',
  request: { body: jsonBody(CreateWebhookBody) },
  responses: { 201: json(CreateWebhookResponse, 'Created; store the secret now, it is never shown again'), ...errors([409, 'webhook_limit_reached']) },
});

export function registerCreateWebhook(app: Group) {
  app.openapi(route, async (c) => {
    const services = c.get('services');
    const result = await createWebhook({ services, auth: c.get('auth'), input: c.req.valid('json'), now: services.clock.now() });
    return c.json(result as never, 201);
  });
}
