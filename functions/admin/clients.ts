import { z } from '@hono/zod-openapi';
import type { Group } from '../../lib/http/env';
import { json, jsonBody } from '../../lib/http/openapi';
import { createClient, updateClient } from '../../lib/orgs/admin';
import { adminRoute } from './route';
import { Client, CreateClientBody, OrgIdParam, UpdateClientBody } from './schema';

const create = adminRoute({
  method: 'post',
  path: '/admin/v1/orgs/{org_id}/clients',
  summary: 'Create a client with its portal permissions (defaults: hot, warm, cold shown; not_interested hidden)',
  request: { params: OrgIdParam, body: jsonBody(CreateClientBody) },
  responses: { 201: json(z.object({ client: Client }), 'Created') },
});

const update = adminRoute({
  method: 'patch',
  path: '/admin/v1/clients/{client_id}',
  summary: "Change a client's portal permissions",
  request: { params: z.object({ client_id: z.uuid() }), body: jsonBody(UpdateClientBody) },
  responses: { 200: json(z.object({ client: Client })) },
});

export function registerClients(app: Group) {
  app.openapi(create, async (c) =>
    c.json({ client: await createClient(c.get('services').db, c.req.valid('param').org_id, c.req.valid('json')) }, 201),
  );
  app.openapi(update, async (c) =>
    c.json({ client: await updateClient(c.get('services').db, c.req.valid('param').client_id, c.req.valid('json')) }, 200),
  );
}
