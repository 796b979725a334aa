import { z } from '@hono/zod-openapi';
import type { Group } from '../../lib/http/env';
import { json, jsonBody } from '../../lib/http/openapi';
import { createInboundSource, listInboundSources, updateInboundSource } from '../../lib/inbound/sources';
import { requireOrg } from '../../lib/orgs/admin';
import { adminRoute } from './route';
import { OrgIdParam } from './schema';

const Provider = z.enum(['instantly', 'smartlead', 'emailbison', 'generic']);
const Name = z.string().trim().min(1).max(200);

const InboundSource = z
  .object({
    id: z.uuid(),
    provider: Provider,
    name: z.string(),
    url: z.string().openapi({ description: 'where the sending tool posts its reply webhook: {base_url}/v1/inbound/{id}' }),
    status: z.enum(['active', 'paused']),
    secret_hint: z.string().openapi({ description: 'the last 4 characters of the secret' }),
    last_received_at: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi('InboundSource');

const create = adminRoute({
  method: 'post',
  path: '/admin/v1/orgs/{org_id}/inbound-sources',
  summary: "Connect a sending tool's reply webhook; the secret is shown only in this answer",
  request: { params: OrgIdParam, body: jsonBody(z.strictObject({ provider: Provider, name: Name.optional() }).openapi('CreateInboundSource')) },
  responses: { 201: json(z.object({ source: InboundSource, secret: z.string() }), 'Created') },
});

const list = adminRoute({
  method: 'get',
  path: '/admin/v1/orgs/{org_id}/inbound-sources',
  summary: "The organization's inbound sources (never their secrets)",
  request: { params: OrgIdParam },
  responses: { 200: json(z.object({ sources: z.array(InboundSource) })) },
});

const update = adminRoute({
  method: 'patch',
  path: '/admin/v1/inbound-sources/{source_id}',
  summary: 'Pause (deliveries refused with 423 source_paused) or resume an inbound source, or rename it',
  request: {
    params: z.object({ source_id: z.uuid() }),
    body: jsonBody(z.strictObject({ name: Name.optional(), status: z.enum(['active', 'paused']).optional() }).openapi('UpdateInboundSource')),
  },
  responses: { 200: json(z.object({ source: InboundSource })) },
});

export function registerInboundSources(app: Group) {
  app.openapi(create, async (c) => {
    const { db, clock, config } = c.get('services');
    const orgId = c.req.valid('param').org_id;
    await requireOrg(db, orgId);
    const { provider, name } = c.req.valid('json');
    return c.json(await createInboundSource(db, { orgId, provider, name, baseUrl: config.publicBaseUrl, now: clock.now() }), 201);
  });
  app.openapi(list, async (c) => {
    const { db, config } = c.get('services');
    const orgId = c.req.valid('param').org_id;
    await requireOrg(db, orgId);
    return c.json({ sources: await listInboundSources(db, orgId, config.publicBaseUrl) }, 200);
  });
  app.openapi(update, async (c) => {
    const { db, clock, config } = c.get('services');
    const source = await updateInboundSource(db, { sourceId: c.req.valid('param').source_id, input: c.req.valid('json'), baseUrl: config.publicBaseUrl, now: clock.now() });
    return c.json({ source }, 200);
  });
}
