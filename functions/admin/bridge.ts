import { z } from '@hono/zod-openapi';
import { createBridgeHook, updateBridgeHook } from '../../lib/bridge/hooks';
import { putTableDestination } from '../../lib/bridge/destination';
import { createTablePush, getTablePush, MAX_PUSH_ROWS } from '../../lib/bridge/pushes';
import type { Group } from '../../lib/http/env';
import { errors, json, jsonBody } from '../../lib/http/openapi';
import { adminRoute } from './route';

const ClientIdParam = z.object({ client_id: z.uuid() });

const BridgeHook = z
  .object({
    id: z.uuid(),
    client_id: z.uuid(),
    tool_name: z.string(),
    enabled: z.boolean(),
    url: z.string().openapi({ description: 'where the table tool posts its rows: {base_url}/v1/bridge/inbound/{id}' }),
    last_received_at: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi('BridgeHook');

const TableDestination = z.object({ url: z.string(), has_token: z.boolean() }).openapi('TableDestination');

const TablePush = z
  .object({
    id: z.uuid(),
    client_id: z.uuid(),
    rows: z.number().int().openapi({ description: 'leads in the push' }),
    sent: z.number().int(),
    failed: z.number().int().openapi({ description: 'leads given up on after four tries (the error in last_error)' }),
    suppressed: z.number().int().openapi({ description: 'leads not posted: on the never-mail list when their turn came' }),
    status: z.enum(['queued', 'sending', 'done', 'failed']),
    last_error: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('TablePush');

const createHook = adminRoute({
  method: 'post',
  path: '/admin/v1/clients/{client_id}/bridge-hooks',
  summary: "Connect a table tool to a client's lead pool; the secret is shown only in this answer",
  request: {
    params: ClientIdParam,
    body: jsonBody(
      z
        .strictObject({
          tool_name: z.string().trim().min(1).max(60).openapi({ description: 'names the daily import: `<tool_name> <YYYY-MM-DD>`', example: 'Clay' }),
          enabled: z.boolean().optional().openapi({ description: 'default true' }),
        })
        .openapi('CreateBridgeHook'),
    ),
  },
  responses: { 201: json(z.object({ hook: BridgeHook, secret: z.string() }), 'Created') },
});

const updateHook = adminRoute({
  method: 'patch',
  path: '/admin/v1/bridge-hooks/{hook_id}',
  summary: 'Enable or disable a bridge hook (a disabled hook answers 403 bridge_not_enabled)',
  request: { params: z.object({ hook_id: z.uuid() }), body: jsonBody(z.strictObject({ enabled: z.boolean() }).openapi('UpdateBridgeHook')) },
  responses: { 200: json(z.object({ hook: BridgeHook })) },
});

const putDestination = adminRoute({
  method: 'put',
  path: '/admin/v1/clients/{client_id}/table-destination',
  summary: "Where a client's leads are posted (a table tool's webhook); the token is stored encrypted and never shown again",
  request: {
    params: ClientIdParam,
    body: jsonBody(
      z
        .strictObject({
          url: z.string().trim().min(1).max(2000).openapi({ description: 'https; the same SSRF rules as webhooks (no private or loopback addresses)' }),
          token: z.string().min(1).max(2000).optional().openapi({ description: 'sent as `Authorization: Bearer <token>`; absent = none' }),
        })
        .openapi('PutTableDestination'),
    ),
  },
  responses: { 200: json(z.object({ destination: TableDestination })) },
});

const createPush = adminRoute({
  method: 'post',
  path: '/admin/v1/clients/{client_id}/table-pushes',
  summary: "Send a client's leads to its table destination, one JSON object per lead, as a queued job",
  request: {
    params: ClientIdParam,
    body: jsonBody(
      z
        .strictObject({
          lead_ids: z
            .array(z.uuid())
            .min(1)
            .max(MAX_PUSH_ROWS)
            .optional()
            .openapi({ description: `the leads to send (at most ${MAX_PUSH_ROWS}); absent = every lead of the pool (400 when that is more)` }),
        })
        .openapi('CreateTablePush'),
    ),
  },
  responses: { 202: json(z.object({ push: TablePush }), 'Queued'), ...errors([409, 'conflict']) },
});

const getPush = adminRoute({
  method: 'get',
  path: '/admin/v1/table-pushes/{push_id}',
  summary: 'A table push: its status (queued, sending, done, failed) and counts',
  request: { params: z.object({ push_id: z.uuid() }) },
  responses: { 200: json(z.object({ push: TablePush })) },
});

export function registerBridge(app: Group) {
  app.openapi(createHook, async (c) => {
    const { db, clock, config } = c.get('services');
    const body = c.req.valid('json');
    const created = await createBridgeHook(db, { clientId: c.req.valid('param').client_id, toolName: body.tool_name, enabled: body.enabled, baseUrl: config.publicBaseUrl, now: clock.now() });
    return c.json(created, 201);
  });
  app.openapi(updateHook, async (c) => {
    const { db, clock, config } = c.get('services');
    const hook = await updateBridgeHook(db, { hookId: c.req.valid('param').hook_id, enabled: c.req.valid('json').enabled, baseUrl: config.publicBaseUrl, now: clock.now() });
    return c.json({ hook }, 200);
  });
  app.openapi(putDestination, async (c) => {
    const services = c.get('services');
    const { url, token } = c.req.valid('json');
    const destination = await putTableDestination(services, { clientId: c.req.valid('param').client_id, url, token, now: services.clock.now() });
    return c.json({ destination }, 200);
  });
  app.openapi(createPush, async (c) => {
    const services = c.get('services');
    const push = await createTablePush(services, { clientId: c.req.valid('param').client_id, leadIds: c.req.valid('json').lead_ids, now: services.clock.now() });
    return c.json({ push }, 202);
  });
  app.openapi(getPush, async (c) => c.json({ push: await getTablePush(c.get('services'), c.req.valid('param').push_id) }, 200));
}
