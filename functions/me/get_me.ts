import { z } from '@hono/zod-openapi';
import { creditsRemaining } from '../../lib/credits/balance';
import type { Group } from '../../lib/http/env';
import { keyRoute } from '../../lib/http/route';
import { errors, json } from '../../lib/http/openapi';

export const MeResponse = z
  .object({
    key: z.object({
      id: z.uuid(),
      name: z.string(),
      prefix: z.enum(['live', 'partner']),
      scopes: z.array(z.string()),
      client_id: z.uuid().nullable(),
      autonomy_level: z.number().int(),
    }),
    organization: z.object({ id: z.uuid(), name: z.string() }),
    rate_limit_per_minute: z.number().int(),
    daily_credit_limit: z.number().int(),
    credits_remaining: z.number().int(),
  })
  .openapi('Me');

// Any valid key may read its own identity: that is how an integrator checks a key before using it.
const route = keyRoute(null, {
  method: 'get',
  path: '/v1/me',
  tags: ['me'],
  summary: "The calling key's identity, scopes, autonomy level and remaining credits for today (UTC)",
  responses: { 200: json(MeResponse), ...errors() },
});

export function registerGetMe(app: Group) {
  app.openapi(route, async (c) => {
    const auth = c.get('auth');
    const { db, clock } = c.get('services');
    return c.json(
      {
        key: { id: auth.keyId, name: auth.keyName, prefix: auth.prefix, scopes: auth.scopes, client_id: auth.clientId, autonomy_level: auth.autonomyLevel },
        organization: { id: auth.orgId, name: auth.orgName },
        rate_limit_per_minute: auth.rateLimitPerMinute,
        daily_credit_limit: auth.dailyCreditLimit,
        credits_remaining: await creditsRemaining(db, auth, clock.now()),
      },
      200,
    );
  });
}
