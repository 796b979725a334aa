import { addCrmNote } from '../../lib/crm/add_note';
import type { Group } from '../../lib/http/env';
import { errors, json, jsonBody, UuidParam } from '../../lib/http/openapi';
import { crmRoute } from './route';
import { AddCrmNoteBody, LeadResponse } from './schema';

const route = crmRoute('crm.write', {
  method: 'post',
  path: '/v1/crm/leads/{id}/notes',
  summary: "Append a note (author: the key's name); sends the lead's planned follow-ups to review",
  request: { params: UuidParam, body: jsonBody(AddCrmNoteBody) },
  responses: {
    201: json(LeadResponse, 'Created'),
    ...errors([403, 'insufficient_scope / feature_not_enabled'], [404, 'not_found'], [429, 'crm_write_rate_limited (60 per minute per key)']),
  },
});

export function registerAddCrmNote(app: Group) {
  app.openapi(route, async (c) => {
    const { db, limits, clock, config } = c.get('services');
    const lead = await addCrmNote({
      deps: { db, limits, auth: c.get('auth'), now: clock.now(), portalUrl: config.portalUrl },
      leadId: c.req.valid('param').id,
      text: c.req.valid('json').text,
    });
    return c.json({ lead } as never, 201);
  });
}
