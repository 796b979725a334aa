import { z } from '@hono/zod-openapi';
import { listDecisions } from '../../lib/decisions/list_decisions';
import type { Group } from '../../lib/http/env';
import { json } from '../../lib/http/openapi';
import { requireOrg } from '../../lib/orgs/admin';
import { adminRoute } from './route';
import { Decision, DecisionsQuery, OrgIdParam } from './schema';

const route = adminRoute({
  method: 'get',
  path: '/admin/v1/orgs/{org_id}/decisions',
  summary: 'The Decision Trail, newest first (at most 200), optionally for one reply or lead',
  request: { params: OrgIdParam, query: DecisionsQuery },
  responses: { 200: json(z.object({ decisions: z.array(Decision) })) },
});

export function registerDecisions(app: Group) {
  app.openapi(route, async (c) => {
    const db = c.get('services').db;
    const orgId = c.req.valid('param').org_id;
    await requireOrg(db, orgId);
    const q = c.req.valid('query');
    return c.json({ decisions: await listDecisions({ db, orgId, replyId: q.reply_id, leadId: q.lead_id }) } as never, 200);
  });
}
