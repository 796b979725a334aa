import { z } from '@hono/zod-openapi';
import type { Group } from '../../lib/http/env';
import { errors, json, jsonBody } from '../../lib/http/openapi';
import { createCampaign, updateCampaign } from '../../lib/orgs/admin';
import { Campaign } from '../campaigns/schema';
import { adminRoute } from './route';
import { CreateCampaignBody, OrgIdParam, UpdateCampaignBody } from './schema';

const AdminCampaign = Campaign.extend({ provider: z.string().nullable(), provider_campaign_id: z.string().nullable() }).openapi('AdminCampaign');

const create = adminRoute({
  method: 'post',
  path: '/admin/v1/orgs/{org_id}/campaigns',
  summary: 'Create a campaign (as synced from the sending tool)',
  request: { params: OrgIdParam, body: jsonBody(CreateCampaignBody) },
  responses: { 201: json(z.object({ campaign: AdminCampaign }), 'Created'), ...errors([409, 'conflict']) },
});

const update = adminRoute({
  method: 'patch',
  path: '/admin/v1/campaigns/{campaign_id}',
  summary: "Sync a campaign's stats, status, name or client; stats writes stamp stats_last_synced_at",
  request: { params: z.object({ campaign_id: z.uuid() }), body: jsonBody(UpdateCampaignBody) },
  responses: { 200: json(z.object({ campaign: AdminCampaign })), ...errors([409, 'conflict']) },
});

export function registerCampaigns(app: Group) {
  app.openapi(create, async (c) => {
    const { db, clock } = c.get('services');
    return c.json({ campaign: await createCampaign(db, c.req.valid('param').org_id, c.req.valid('json'), clock.now()) }, 201);
  });
  app.openapi(update, async (c) => {
    const { db, clock } = c.get('services');
    return c.json({ campaign: await updateCampaign(db, c.req.valid('param').campaign_id, c.req.valid('json'), clock.now()) }, 200);
  });
}
