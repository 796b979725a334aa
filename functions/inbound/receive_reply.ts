import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { ApiError } from '../../lib/errors';
import { countInboundDelivery, presentedInboundSecret } from '../../lib/inbound/auth';
import { adapterFor } from '../../lib/inbound/adapters';
import { GenericReply } from '../../lib/inbound/adapters/generic';
import { ingestDelivery } from '../../lib/inbound/ingest_delivery';
import { authenticateSource } from '../../lib/inbound/sources';
import type { AppEnv, Group } from '../../lib/http/env';
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

/** Parsed here rather than by the route's validator: the adapter of the source decides what a valid body is. */
async function payloadOf(c: Context<AppEnv>): Promise<unknown> {
  const raw = await c.req.text();
  try {
    return JSON.parse(raw);
  } catch {
    throw new ApiError('validation_error', 'body: not valid JSON');
  }
}

const result = (r: Partial<z.infer<typeof Accepted>>) => ({
  ok: true as const,
  duplicate: false,
  ignored: false,
  reason: null,
  reply_id: null,
  lead_id: null,
  classification: null,
  campaign_id: null,
  opted_out: false,
  ...r,
});

export function registerReceiveReply(app: Group) {
  // Documented from `route`, but served without its body validator: which payload is valid depends on the
  // source's provider, so the source's adapter validates it (an Instantly body is not the generic format).
  app.openAPIRegistry.registerPath(route);
  app.post('/v1/inbound/:source_id', async (c) => {
    const services = c.get('services');
    const sourceId = c.req.param('source_id') ?? '';
    const source = await authenticateSource(services.db, sourceId, presentedInboundSecret(c));
    await countInboundDelivery(c, source);
    if (!source) throw new ApiError('unauthorized', 'unknown inbound source or wrong secret');

    const payload = await payloadOf(c);
    const parsed = adapterFor(source.provider).parse(payload);
    if (parsed.kind === 'invalid') throw new ApiError('validation_error', parsed.problems.join('; '));
    if (parsed.kind === 'ignored') return c.json(result({ ignored: true, reason: parsed.reason }), 200);

    const r = await ingestDelivery({ db: services.db, classify: services.classify, source, reply: parsed.reply, now: services.clock.now() });
    return c.json(
      result({
        duplicate: r.duplicate,
        reason: r.duplicate ? 'this message was delivered before; nothing was stored again' : null,
        reply_id: r.reply_id,
        lead_id: r.lead_id,
        classification: r.classification,
        campaign_id: r.campaign?.id ?? null,
        opted_out: r.opted_out,
      }),
      200,
    );
  });
}
