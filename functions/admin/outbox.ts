import { z } from '@hono/zod-openapi';
import type { Group } from '../../lib/http/env';
import { json } from '../../lib/http/openapi';
import { listOutbox } from '../../lib/mail/outbox';
import { requireOrg } from '../../lib/orgs/admin';
import { adminRoute } from './route';
import { OrgIdParam } from './schema';

const OutboxMessage = z
  .object({ id: z.uuid(), reply_id: z.uuid().nullable(), to_email: z.string(), body: z.string(), sent_at: z.string() })
  .openapi('OutboxMessage');

const route = adminRoute({
  method: 'get',
  path: '/admin/v1/orgs/{org_id}/outbox',
  summary: 'What the outbox provider recorded (it sends nothing), newest first, at most 200, optionally for one reply',
  request: { params: OrgIdParam, query: z.object({ reply_id: z.uuid().optional() }) },
  responses: { 200: json(z.object({ messages: z.array(OutboxMessage) })) },
});

export function registerOutbox(app: Group) {
  app.openapi(route, async (c) => {
    const db = c.get('services').db;
    const orgId = c.req.valid('param').org_id;
    await requireOrg(db, orgId);
    return c.json({ messages: await listOutbox({ db, orgId, replyId: c.req.valid('query').reply_id }) }, 200);
  });
}
