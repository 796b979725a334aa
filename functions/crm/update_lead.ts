import { updateCrmLead } from '../../lib/crm/update_lead';
import type { Group } from '../../lib/http/env';
import { errors, json, jsonBody, UuidParam } from '../../lib/http/openapi';
import { crmRoute } from './route';
import { ConflictResponse, LeadResponse, UpdateCrmLeadBody } from './schema';

const route = crmRoute('crm.write', {
  method: 'patch',
  path: '/v1/crm/leads/{id}',
  summary:
    'Update phase, deal and next action. With if_updated_at (the crm_updated_at you read) a lead changed since is 409 conflict with the current lead and nothing written; without it the last write wins. Phase won/lost cancels planned follow-ups and check-ins; any other change sends planned follow-ups to review.',
  request: { params: UuidParam, body: jsonBody(UpdateCrmLeadBody) },
  responses: {
    200: json(LeadResponse),
    409: json(ConflictResponse, 'conflict: the lead changed after if_updated_at'),
    ...errors([403, 'insufficient_scope / feature_not_enabled'], [404, 'not_found'], [429, 'crm_write_rate_limited (60 per minute per key)']),
  },
});

export function registerUpdateCrmLead(app: Group) {
  app.openapi(route, async (c) => {
    const { db, limits, clock, config } = c.get('services');
    const lead = await updateCrmLead({
      deps: { db, limits, auth: c.get('auth'), now: clock.now(), portalUrl: config.portalUrl },
      leadId: c.req.valid('param').id,
      input: c.req.valid('json'),
    });
    return c.json({ lead } as never, 200);
  });
}
