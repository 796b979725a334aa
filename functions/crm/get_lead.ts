import { crmTenantOf } from '../../lib/crm/access';
import { getCrmLead } from '../../lib/crm/get_lead';
import type { Group } from '../../lib/http/env';
import { errors, json, UuidParam } from '../../lib/http/openapi';
import { crmRoute } from './route';
import { LeadResponse } from './schema';

const route = crmRoute('crm.read', {
  method: 'get',
  path: '/v1/crm/leads/{id}',
  summary: 'One CRM lead by its stable id; 404 when unknown or not visible to the client',
  request: { params: UuidParam },
  responses: { 200: json(LeadResponse), ...errors([403, 'insufficient_scope / feature_not_enabled'], [404, 'not_found']) },
});

export function registerGetCrmLead(app: Group) {
  app.openapi(route, async (c) => {
    const { db, config } = c.get('services');
    const lead = await getCrmLead({ db, tenant: crmTenantOf(c.get('auth')), leadId: c.req.valid('param').id, portalUrl: config.portalUrl });
    return c.json({ lead } as never, 200);
  });
}
