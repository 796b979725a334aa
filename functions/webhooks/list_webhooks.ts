import type { Group } from '../../lib/http/env';
import { errors, json } from '../../lib/http/openapi';
import { keyRoute } from '../../lib/http/route';
import { listWebhooks } from '../../lib/webhooks/manage';
import { ListWebhooksResponse } from './schema';

const route = keyRoute('webhooks.manage', {
  method: 'get',
  path: '/v1/webhooks',
  tags: ['webhooks'],
  summary: 'List webhooks with their delivery health (failure_count, disabled_reason, last_delivery_at, last_attempt_at, last_error); never the secret',
  responses: { 200: json(ListWebhooksResponse), ...errors() },
});

export function registerListWebhooks(app: Group) {
  app.openapi(route, async (c) => {
    const webhooks = await listWebhooks({ db: c.get('services').db, auth: c.get('auth') });
    return c.json({ webhooks } as never, 200);
  });
}
