import type { Group } from '../../lib/http/env';
import { keyRoute } from '../../lib/http/route';
import { errors, json, UuidParam } from '../../lib/http/openapi';
import { getReplyAnswer } from '../../lib/leads/get_reply';
import { tenantOf } from '../../lib/tenancy';
import { GetReplyResponse } from './schema';

const route = keyRoute('leads.read', {
  method: 'get',
  path: '/v1/replies/{id}',
  tags: ['leads'],
  summary: "A reply with its lead's whole conversation in time order",
  request: { params: UuidParam },
  responses: { 200: json(GetReplyResponse), ...errors([404, 'not_found']) },
});

export function registerGetReply(app: Group) {
  app.openapi(route, async (c) => {
    return c.json(await getReplyAnswer({ db: c.get('services').db, tenant: tenantOf(c.get('auth')), replyId: c.req.valid('param').id }), 200);
  });
}
