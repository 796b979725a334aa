import { z } from '@hono/zod-openapi';
import type { Group } from '../../lib/http/env';
import { errors, json, jsonBody } from '../../lib/http/openapi';
import { createProviderCampaign, listProviderCampaigns } from '../../lib/orgs/provider_campaigns';
import { adminRoute } from './route';
import { CreateProviderCampaignBody, OrgIdParam, ProviderCampaign } from './schema';

const create = adminRoute({
  method: 'post',
  path: '/admin/v1/orgs/{org_id}/provider-campaigns',
  summary: 'Record a campaign that exists at the sending tool but is not imported (list_campaigns shows it, import_campaigns imports it)',
  request: { params: OrgIdParam, body: jsonBody(CreateProviderCampaignBody) },
  responses: { 201: json(z.object({ provider_campaign: ProviderCampaign }), 'Created'), ...errors([409, 'conflict']) },
});

const list = adminRoute({
  method: 'get',
  path: '/admin/v1/orgs/{org_id}/provider-campaigns',
  summary: "The organization's provider campaigns, imported or not, oldest first",
  request: { params: OrgIdParam },
  responses: { 200: json(z.object({ provider_campaigns: z.array(ProviderCampaign) })) },
});

export function registerProviderCampaigns(app: Group) {
  app.openapi(create, async (c) => {
    const { db, clock } = c.get('services');
    return c.json({ provider_campaign: await createProviderCampaign(db, c.req.valid('param').org_id, c.req.valid('json'), clock.now()) }, 201);
  });
  app.openapi(list, async (c) => c.json({ provider_campaigns: await listProviderCampaigns(c.get('services').db, c.req.valid('param').org_id) }, 200));
}
