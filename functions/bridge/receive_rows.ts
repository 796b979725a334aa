import { createRoute, z } from '@hono/zod-openapi';
import { presentedBridgeSecret } from '../../lib/bridge/hooks';
import { receiveBridgeRows } from '../../lib/bridge/inbound';
import type { Group } from '../../lib/http/env';
import { errors, json } from '../../lib/http/openapi';

const Count = z.number().int().min(0);
const Answer = z
  .object({
    ok: z.boolean(),
    received: Count.openapi({ description: 'rows in the request' }),
    sent_to_pool: Count.openapi({ description: 'rows the pool took in: added, duplicates, already mailed and waiting for an email' }),
    unusable: Count.openapi({ description: 'rows with neither an email nor a person and a company (or not an object)' }),
    import_today: z
      .object({ name: z.string(), added: Count, duplicates: Count, already_mailed: Count, waiting_for_email: Count, invalid: Count })
      .openapi({ description: "the whole of today's import of this tool (`<tool> <YYYY-MM-DD>` in the organization's timezone), this request included" }),
  })
  .openapi('BridgeAnswer');

// A row is the table's columns as they are: mapped fields by name, every other column kept as a custom field.
const Row = z
  .object({
    email: z.string().optional(),
    first_name: z.string().optional(),
    last_name: z.string().optional(),
    full_name: z.string().optional(),
    company: z.string().optional(),
    domain: z.string().optional(),
    website: z.string().optional(),
    title: z.string().optional(),
    linkedin_url: z.string().optional(),
    company_linkedin_url: z.string().optional(),
    country: z.string().optional(),
    city: z.string().optional(),
    state: z.string().optional(),
  })
  .catchall(z.unknown())
  .openapi('BridgeRow');
const Body = z.union([z.object({ rows: z.array(Row).max(100) }), Row]).openapi('BridgeRows');

const route = createRoute({
  method: 'post',
  path: '/v1/bridge/inbound/{hook_id}',
  tags: ['bridge'],
  summary: "Rows from a client's table tool into its lead pool",
  description:
    'Authenticated by the hook secret in `x-bridge-secret` or `Authorization: Bearer`. The body is one row as a JSON object or `{ rows: [...] }` (at most 100 rows, 256 KB). Rows go through the same import as a CSV; all rows of a day form one import named `<tool> <YYYY-MM-DD>`. 1,200 rows per minute per client.',
  security: [{ BridgeSecret: [] }, { BridgeBearer: [] }],
  request: {
    params: z.object({ hook_id: z.string().max(64) }),
    body: { content: { 'application/json': { schema: Body } }, required: true },
  },
  responses: {
    200: json(Answer, 'Imported: the counts of this request and of the whole day'),
    ...errors([403, 'bridge_not_enabled'], [413, 'payload_too_large'], [422, 'no_usable_row'], [423, 'studio_paused'], [503, 'service_unavailable']),
  },
});

export function registerReceiveRows(app: Group) {
  // Documented from `route`, served without its body validator: the body is read as text under the 256 KB cap and
  // parsed by the verb, whose refusals (413 over 100 rows, 422 no usable row) the schema could not express.
  app.openAPIRegistry.registerPath(route);
  app.openAPIRegistry.registerComponent('securitySchemes', 'BridgeSecret', { type: 'apiKey', in: 'header', name: 'x-bridge-secret' });
  app.openAPIRegistry.registerComponent('securitySchemes', 'BridgeBearer', { type: 'http', scheme: 'bearer' });
  app.post('/v1/bridge/inbound/:hook_id', async (c) => {
    const answer = await receiveBridgeRows(c.get('services'), {
      hookId: c.req.param('hook_id'),
      secret: presentedBridgeSecret((name) => c.req.header(name)),
      rawBody: await c.req.text(),
      clientIp: c.get('clientIp'),
    });
    return c.json(answer satisfies z.infer<typeof Answer>, 200);
  });
}
