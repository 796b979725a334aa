import type { Group } from '../../lib/http/env';
import { keyRoute } from '../../lib/http/route';
import { errors, json, jsonBody, UuidParam } from '../../lib/http/openapi';
import { updateLead } from '../../lib/leads/update_lead';
import { UpdateLeadBody, UpdateLeadResponse } from './schema';

const route = keyRoute('leads.write', {
  method: 'patch',
  path: '/v1/leads/{id}',
  tags: ['leads'],
  summary: "Update a lead's classification and/or add a note to its notes, addressed by the id of one of its replies; emits lead.updated",
  request: { params: UuidParam, body: jsonBody(UpdateLeadBody) },
  responses: { 200: json(UpdateLeadResponse), ...errors([404, 'not_found']) },
});

export function registerUpdateLead(app: Group) {
  app.openapi(route, async (c) => {
    const { db, clock } = c.get('services');
    const result = await updateLead({ db, auth: c.get('auth'), replyId: c.req.valid('param').id, input: c.req.valid('json'), now: clock.now() });
    return c.json(result as never, 200);
  });
}
