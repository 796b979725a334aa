import { z } from '@hono/zod-openapi';
import type { Group } from '../../lib/http/env';
import { json, jsonBody } from '../../lib/http/openapi';
import { configureProvider } from '../../lib/mail/provider';
import { requireOrg } from '../../lib/orgs/admin';
import { adminRoute } from './route';
import { OrgIdParam } from './schema';

const SendingProviderBody = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('outbox') }),
    z.strictObject({
      kind: z.literal('http'),
      url: z.string().max(2048).openapi({ description: 'https URL of the sending service (private addresses only with ALLOW_PRIVATE_WEBHOOK_URLS)' }),
      secret: z.string().max(200).nullable().optional().openapi({ description: 'a whsec_ secret: requests are then signed like webhook deliveries' }),
    }),
    z.strictObject({
      kind: z.literal('instantly'),
      api_key: z.string().max(512).openapi({ description: 'an Instantly API v2 key with the emails:create scope (leads:create to push leads); stored encrypted, never returned' }),
    }),
    z.strictObject({
      kind: z.literal('smartlead'),
      api_key: z.string().max(512).openapi({ description: 'the Smartlead API key (Settings → API key); stored encrypted, never returned' }),
    }),
  ])
  .openapi('SendingProviderInput');

const Provider = z
  .object({
    kind: z.enum(['outbox', 'http', 'instantly', 'smartlead']),
    url: z.string().nullable().optional(),
    signed: z.boolean().optional(),
    api_key_hint: z.string().nullable().optional().openapi({ description: "instantly/smartlead: '…' and the key's last four characters" }),
  })
  .openapi('SendingProvider');

const route = adminRoute({
  method: 'put',
  path: '/admin/v1/orgs/{org_id}/sending-provider',
  summary:
    "Set the organization's sending provider: outbox (records, sends nothing), http (signed JSON POST), or a sending tool's reply API (instantly, smartlead: answers in the prospect's thread)",
  request: { params: OrgIdParam, body: jsonBody(SendingProviderBody) },
  responses: { 200: json(z.object({ provider: Provider })) },
});

export function registerSendingProvider(app: Group) {
  app.openapi(route, async (c) => {
    const services = c.get('services');
    const orgId = c.req.valid('param').org_id;
    await requireOrg(services.db, orgId);
    const provider = await configureProvider({ db: services.db, deps: services, orgId, input: c.req.valid('json'), now: services.clock.now() });
    return c.json({ provider } as never, 200);
  });
}
