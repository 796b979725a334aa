import type { Group } from '../../lib/http/env';
import { errors, json, jsonBody } from '../../lib/http/openapi';
import { keyRoute } from '../../lib/http/route';
import { DEFAULT_OVERLAP_HOURS, rotateWebhookSecret } from '../../lib/webhooks/rotate_secret';
import { RotateSecretBody, RotateSecretResponse, WebhookIdParam } from './schema';

const route = keyRoute('webhooks.manage', {
  method: 'post',
  path: '/v1/webhooks/{id}/rotate-secret',
  tags: ['webhooks'],
  summary: 'Replace the signing secret; the new one is shown only in this response',
  description:
    'From now on every delivery is signed with the new secret; the replaced one signs beside it (a second v1 signature) until previous_secret_expires_at, so a receiver can switch without rejecting a delivery. Rotating again replaces the previous secret.',
  request: { params: WebhookIdParam, body: jsonBody(RotateSecretBody) },
  responses: { 200: json(RotateSecretResponse), ...errors([404, 'not_found']) },
});

export function registerRotateSecret(app: Group) {
  app.openapi(route, async (c) => {
    const services = c.get('services');
    const overlapHours = c.req.valid('json').previous_secret_expires_in_hours ?? DEFAULT_OVERLAP_HOURS;
    const result = await rotateWebhookSecret({ services, auth: c.get('auth'), id: c.req.valid('param').id, overlapHours, now: services.clock.now() });
    return c.json(result as never, 200);
  });
}
