import { z } from '@hono/zod-openapi';
import type { Group } from '../../lib/http/env';
import { json } from '../../lib/http/openapi';
import { requireOrg } from '../../lib/orgs/admin';
import { liftOptOut, listOptOuts } from '../../lib/suppression/opt_outs';
import { adminRoute } from './route';
import { OrgIdParam } from './schema';

const OptOut = z
  .object({
    email: z.string(),
    reason: z.enum(['opt_out', 'manual', 'import']),
    phrase: z.string().nullable().openapi({ description: 'the sentence of the reply that asked for it (normalised), when reason = opt_out' }),
    reply_id: z.uuid().nullable(),
    lead_id: z.uuid().nullable(),
    created_by: z.string(),
    created_at: z.string(),
  })
  .openapi('OptOut');

const list = adminRoute({
  method: 'get',
  path: '/admin/v1/orgs/{org_id}/opt-outs',
  summary: "The organization's do-not-contact addresses (opt-outs; every client), newest first",
  request: {
    params: OrgIdParam,
    query: z.object({
      limit: z.coerce.number().int().min(1).max(1000).default(200).openapi({ description: '1..1000, default 200' }),
      offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
    }),
  },
  responses: { 200: json(z.object({ opt_outs: z.array(OptOut) })) },
});

const lift = adminRoute({
  method: 'delete',
  path: '/admin/v1/orgs/{org_id}/opt-outs/{email}',
  summary: 'Take an address off the do-not-contact list (sends to it work again); recorded as opt_out.lifted',
  request: { params: OrgIdParam.extend({ email: z.email().max(320).openapi({ description: 'the address, URL-encoded (%40 for @)' }) }) },
  responses: { 200: json(z.object({ lifted: OptOut.extend({ lifted_at: z.string() }) })) },
});

export function registerOptOuts(app: Group) {
  app.openapi(list, async (c) => {
    const db = c.get('services').db;
    const orgId = c.req.valid('param').org_id;
    await requireOrg(db, orgId);
    return c.json({ opt_outs: await listOptOuts(db, orgId, c.req.valid('query')) }, 200);
  });
  app.openapi(lift, async (c) => {
    const { db, clock } = c.get('services');
    const { org_id: orgId, email } = c.req.valid('param');
    await requireOrg(db, orgId);
    return c.json({ lifted: await liftOptOut(db, { orgId, email, now: clock.now() }) }, 200);
  });
}
