import { z } from '@hono/zod-openapi';
import type { Group } from '../../lib/http/env';
import { json, jsonBody } from '../../lib/http/openapi';
import { createOrg, updateOrg } from '../../lib/orgs/admin';
import { adminRoute } from './route';
import { CreateOrgBody, Org, OrgIdParam, UpdateOrgBody } from './schema';

const create = adminRoute({
  method: 'post',
  path: '/admin/v1/orgs',
  summary: 'Create an organization',
  request: { body: jsonBody(CreateOrgBody) },
  responses: { 201: json(z.object({ org: Org }), 'Created') },
});

const update = adminRoute({
  method: 'patch',
  path: '/admin/v1/orgs/{org_id}',
  summary: "Switch an organization's features or demo flag",
  request: { params: OrgIdParam, body: jsonBody(UpdateOrgBody) },
  responses: { 200: json(z.object({ org: Org })) },
});

export function registerOrgs(app: Group) {
  app.openapi(create, async (c) => c.json({ org: await createOrg(c.get('services').db, c.req.valid('json')) }, 201));
  app.openapi(update, async (c) => {
    const services = c.get('services');
    return c.json({ org: await updateOrg(services.db, c.req.valid('param').org_id, c.req.valid('json'), services.clock.now(), services) }, 200);
  });
}
