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
      read_only: z.boolean().openapi({ description: 'true: every write is refused (403 insufficient_scope, "this key is read-only: …") whatever `scopes` lists' }),
    }),
    organization: z.object({ id: z.uuid(), name: z.string() }),
    rate_limit_per_minute: z.number().int(),
    daily_credit_limit: z.number().int(),
    credits_remaining: z.number().int(),
  })
  .openapi('Me', {
    example: {
      key: { id: '0b7e9c2d-4f1a-4c3b-8d6e-5a9f1b2c3d4e', name: 'Zapier', prefix: 'live', scopes: ['leads.read', 'leads.write'], client_id: null, autonomy_level: 1, read_only: false },
      organization: { id: '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d', name: 'Northwind Outreach' },
      rate_limit_per_minute: 100,
      daily_credit_limit: 100,
      credits_remaining: 87,
    },
  });

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
        key: { id: auth.keyId, name: auth.keyName, prefix: auth.prefix, scopes: auth.scopes, client_id: auth.clientId, autonomy_level: auth.autonomyLevel, read_only: auth.readOnly },
        organization: { id: auth.orgId, name: auth.orgName },
        rate_limit_per_minute: auth.rateLimitPerMinute,
        daily_credit_limit: auth.dailyCreditLimit,
        credits_remaining: await creditsRemaining(db, auth, clock.now()),
      },
      200,
    );
  });
}
