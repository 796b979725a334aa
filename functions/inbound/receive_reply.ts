import { createRoute, z } from '@hono/zod-openapi';
import { GenericReply } from '../../lib/inbound/adapters/generic';
import { presentedInboundSecret } from '../../lib/inbound/auth';
import { receiveDelivery } from '../../lib/inbound/receive';
import type { Group } from '../../lib/http/env';
import { errors, json } from '../../lib/http/openapi';

const Accepted = z
  .object({
    ok: z.literal(true),
    duplicate: z.boolean().openapi({ description: 'true when this message was delivered before: nothing was stored again' }),
    ignored: z.boolean().openapi({ description: 'true for an event that is not a reply (opens, sends, bounces): acknowledged, not stored' }),
    reason: z.string().nullable(),
    reply_id: z.uuid().nullable(),
    lead_id: z.uuid().nullable(),
    classification: z.string().nullable(),
    campaign_id: z.uuid().nullable(),
    opted_out: z.boolean().openapi({ description: 'the reply asked to be removed: the address is now on the do-not-contact list' }),
  })
  .openapi('InboundAccepted');

const route = createRoute({
  method: 'post',
  path: '/v1/inbound/{source_id}',
  tags: ['inbound'],
  summary: "A sending tool's reply webhook (Instantly, Smartlead, EmailBison or the generic format of the source)",
  description:
    'Authenticated by the source secret in `x-inbound-secret`, `Authorization: Bearer`, or a `token` query parameter. The body is the provider\'s documented reply-webhook payload (up to 1 MB).',
  security: [{ InboundSecret: [] }, { InboundBearer: [] }],
  request: {
    params: z.object({ source_id: z.string().max(64) }),
    query: z.object({ token: z.string().max(200).optional() }),
    // Documented as the generic format (the fuzz generates from it); a source of another provider takes that
    // provider's own documented payload instead. The source's adapter, not this schema, validates the body.
    body: { content: { 'application/json': { schema: GenericReply } }, required: true },
  },
  responses: {
    200: json(Accepted, 'Stored, a duplicate of a stored message, or an ignored non-reply event'),
    ...errors([409, 'conflict'], [413, 'payload_too_large'], [422, 'unknown_campaign'], [423, 'source_paused']),
  },
});

export function registerReceiveReply(app: Group) {
  // Documented from `route`, but served without its body validator: which payload is valid depends on the
  // source's provider, so the source's adapter validates it (an Instantly body is not the generic format).
  app.openAPIRegistry.registerPath(route);
  app.post('/v1/inbound/:source_id', async (c) => {
    const delivered = await receiveDelivery(c.get('services'), {
      sourceId: c.req.param('source_id'),
      secret: presentedInboundSecret(c.req),
      rawBody: await c.req.text(),
      clientIp: c.get('clientIp'),
    });
    return c.json(delivered satisfies z.infer<typeof Accepted>, 200);
  });
}
