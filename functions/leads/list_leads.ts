import type { Group } from '../../lib/http/env';
import { keyRoute } from '../../lib/http/route';
import { errors, json, paginationMeta } from '../../lib/http/openapi';
import { listLeads } from '../../lib/leads/list_leads';
import { tenantOf } from '../../lib/tenancy';
import { ListLeadsQuery, ListLeadsResponse } from './schema';

const route = keyRoute('leads.read', {
  method: 'get',
  path: '/v1/leads',
  tags: ['leads'],
  summary: 'List leads (one per prospect email and campaign), newest reply first',
  request: { query: ListLeadsQuery },
  responses: { 200: json(ListLeadsResponse), ...errors() },
});

export function registerListLeads(app: Group) {
  app.openapi(route, async (c) => {
    const q = c.req.valid('query');
    const { leads, total } = await listLeads({
      db: c.get('services').db,
      tenant: tenantOf(c.get('auth')),
      input: { campaignId: q.campaign_id, classification: q.classification, since: q.since ? new Date(q.since) : undefined, limit: q.limit, offset: q.offset },
    });
    return c.json({ leads, ...paginationMeta(leads.length, total, q.limit, q.offset) }, 200);
  });
}
