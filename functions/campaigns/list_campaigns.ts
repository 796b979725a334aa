import { createRoute } from '@hono/zod-openapi';
import { listCampaigns } from '../../lib/campaigns/list_campaigns';
import { requireScope } from '../../lib/http/auth';
import type { Group } from '../../lib/http/env';
import { errors, json, paginationMeta, serviceKey } from '../../lib/http/openapi';
import { tenantOf } from '../../lib/tenancy';
import { ListCampaignsQuery, ListCampaignsResponse } from './schema';

const route = createRoute({
  method: 'get',
  path: '/v1/campaigns',
  tags: ['campaigns'],
  summary: 'List campaigns with their statistics',
  security: serviceKey,
  middleware: [requireScope('campaigns.read')] as const,
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
