import { z } from '@hono/zod-openapi';
import type { Group } from '../../lib/http/env';
import { json, jsonBody } from '../../lib/http/openapi';
import { createKey, updateKey } from '../../lib/orgs/admin';
import { adminRoute } from './route';
import { CreateKeyBody, Key, OrgIdParam, UpdateKeyBody } from './schema';

const create = adminRoute({
  method: 'post',
  path: '/admin/v1/orgs/{org_id}/keys',
  summary: 'Create an API key or (kind agency) an agency tool server key; `secret` is the whole key and is shown only in this response. crm.* scopes need a client_id (400 otherwise); agency scopes need kind agency',
  request: { params: OrgIdParam, body: jsonBody(CreateKeyBody) },
  responses: { 201: json(z.object({ key: Key, secret: z.string() }), 'Created') },
});

const update = adminRoute({
  method: 'patch',
  path: '/admin/v1/keys/{key_id}',
  summary: 'Grant an autonomy level, change scopes, or revoke a key (the API sees it on the next request of the key; revoking an agency key disconnects its assistant); crm.* scopes only for a client-locked key',
  request: { params: z.object({ key_id: z.uuid() }), body: jsonBody(UpdateKeyBody) },
  responses: { 200: json(z.object({ key: Key })) },
});

export function registerKeys(app: Group) {
  app.openapi(create, async (c) => {
    const { db, clock } = c.get('services');
    return c.json(await createKey(db, c.req.valid('param').org_id, c.req.valid('json'), clock.now()), 201);
  });
  app.openapi(update, async (c) => {
    const services = c.get('services');
    // Passing the services: this process sees the change at once, every other one on the key's next request.
    const key = await updateKey(services.db, c.req.valid('param').key_id, c.req.valid('json'), services.clock.now(), services);
    return c.json({ key }, 200);
  });
}
