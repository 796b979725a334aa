import { z } from '@hono/zod-openapi';
import type { Group } from '../../lib/http/env';
import { json, jsonBody } from '../../lib/http/openapi';
import { createOrg, updateOrg } from '../../lib/orgs/admin';
import { adminRoute } from './route';
import { CreateOrgBody, Org, OrgIdParam, UpdateOrgBody } from './schema';

const create = adminRoute({
  method: 'post',
  path: '/admin/v1/orgs',
  summary: 'Create an organization with its agency account settings; the opening balance is a credit_ledger row, the creation an audit row',
  request: { body: jsonBody(CreateOrgBody) },
  responses: { 201: json(z.object({ org: Org }), 'Created') },
});

const update = adminRoute({
  method: 'patch',
  path: '/admin/v1/orgs/{org_id}',
  summary: "Change an organization's features, demo flag or agency account settings; credits sets the balance (a ledger row of the difference). Each change is a Decision Trail and an audit row",
  request: { params: OrgIdParam, body: jsonBody(UpdateOrgBody) },
  responses: { 200: json(z.object({ org: Org })) },
});

export function registerOrgs(app: Group) {
  app.openapi(create, async (c) => {
    const { db, clock } = c.get('services');
    return c.json({ org: await createOrg(db, c.req.valid('json'), clock.now()) }, 201);
  });
  app.openapi(update, async (c) => {
    const services = c.get('services');
    return c.json({ org: await updateOrg(services.db, c.req.valid('param').org_id, c.req.valid('json'), services.clock.now(), services) }, 200);
  });
}
