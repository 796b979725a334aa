import { z } from '@hono/zod-openapi';
import type { Group } from '../../lib/http/env';
import { json, jsonBody } from '../../lib/http/openapi';
import { ApiError } from '../../lib/errors';
import { receivedAtProblem } from '../../lib/inbound/bounds';
import { ingestReply } from '../../lib/ingest/ingest_reply';
import { requireOrg } from '../../lib/orgs/admin';
import { Reply } from '../leads/schema';
import { adminRoute } from './route';
import { InboundReplyBody, OrgIdParam } from './schema';

const route = adminRoute({
  method: 'post',
  path: '/admin/v1/orgs/{org_id}/inbound-replies',
  summary: 'Ingest a prospect reply: classification, lead aggregation, thread, lead.replied event',
  request: { params: OrgIdParam, body: jsonBody(InboundReplyBody) },
  responses: { 201: json(z.object({ reply: Reply, lead_id: z.uuid() }), 'Created') },
});

export function registerInboundReplies(app: Group) {
  app.openapi(route, async (c) => {
    const { db, clock, classify } = c.get('services');
    const orgId = c.req.valid('param').org_id;
    await requireOrg(db, orgId);
    const input = c.req.valid('json');
    const now = clock.now();
    const future = receivedAtProblem(input.received_at, now);
    if (future) throw new ApiError('validation_error', `received_at: ${future}`);
    const { reply, leadId } = await ingestReply({ db, orgId, input, classify, now });
    return c.json({ reply, lead_id: leadId }, 201);
  });
}
