import { crmTenantOf } from '../../lib/crm/access';
import { listCrmLeads } from '../../lib/crm/list_leads';
import type { Group } from '../../lib/http/env';
import { errors, json } from '../../lib/http/openapi';
import { crmRoute } from './route';
import { CrmLeadPage, ListCrmLeadsQuery } from './schema';

const route = crmRoute('crm.read', {
  method: 'get',
  path: '/v1/crm/leads',
  summary:
    "Page through the CRM leads visible to the key's client. Follow next_cursor until has_more is false; filters apply per lead after paging, so a page may be short. For incremental sync store the server_time of each run's first page (not your own clock) and pass it as updated_since next run: it returns the leads with updated_at at or after it.",
  request: { query: ListCrmLeadsQuery },
  responses: { 200: json(CrmLeadPage), ...errors([403, 'insufficient_scope / feature_not_enabled']) },
});

export function registerListCrmLeads(app: Group) {
  app.openapi(route, async (c) => {
    const { db, config } = c.get('services');
    const page = await listCrmLeads({ db, tenant: crmTenantOf(c.get('auth')), input: c.req.valid('query'), portalUrl: config.portalUrl });
    return c.json({ leads: page.leads, next_cursor: page.next_cursor, has_more: page.has_more, server_time: page.server_time } as never, 200);
  });
}
