import { listCampaigns } from '../../lib/campaigns/list_campaigns';
import type { Group } from '../../lib/http/env';
import { keyRoute } from '../../lib/http/route';
import { errors, json, paginationMeta } from '../../lib/http/openapi';
import { tenantOf } from '../../lib/tenancy';
import { ListCampaignsQuery, ListCampaignsResponse } from './schema';

const route = keyRoute('campaigns.read', {
  method: 'get',
  path: '/v1/campaigns',
  tags: ['campaigns'],
  summary: 'List campaigns with their statistics',
  request: { query: ListCampaignsQuery },
  responses: { 200: json(ListCampaignsResponse), ...errors() },
});

export function registerListCampaigns(app: Group) {
  app.openapi(route, async (c) => {
    const q = c.req.valid('query');
    const { campaigns, total } = await listCampaigns({ db: c.get('services').db, tenant: tenantOf(c.get('auth')), input: q });
    return c.json({ campaigns, ...paginationMeta(campaigns.length, total, q.limit, q.offset) }, 200);
  });
}
