import { z } from '@hono/zod-openapi';
import type { Group } from '../../lib/http/env';
import { json, jsonBody } from '../../lib/http/openapi';
import { createFollowup, FollowupViewSchema, listFollowups, resolveFollowup } from '../../lib/followups/plan';
import { requireOrg } from '../../lib/orgs/admin';
import { adminRoute } from './route';
import { OrgIdParam } from './schema';

const Followup = FollowupViewSchema;

const CreateFollowupBody = z.strictObject({
  reply_id: z.uuid(),
  kind: z.enum(['followup', 'checkin']),
  due_at: z.iso.datetime({ offset: true }),
  body: z.string().max(40_000).refine((b) => b.trim().length > 0, { message: 'must not be empty' }),
});
const ResolveFollowupBody = z.strictObject({ status: z.enum(['planned', 'cancelled']) });

const create = adminRoute({
  method: 'post',
  path: '/admin/v1/orgs/{org_id}/followups',
  summary: "Plan a follow-up or check-in on a reply's thread; at due_at it is sent under the send limits",
  request: { params: OrgIdParam, body: jsonBody(CreateFollowupBody) },
  responses: { 201: json(z.object({ followup: Followup }), 'Created') },
});

const list = adminRoute({
  method: 'get',
  path: '/admin/v1/orgs/{org_id}/followups',
  summary: 'Planned, in-review, cancelled and sent follow-ups, by due time, optionally of one lead',
  request: { params: OrgIdParam, query: z.object({ lead_id: z.uuid().optional() }) },
  responses: { 200: json(z.object({ followups: z.array(Followup) })) },
});

const resolve = adminRoute({
  method: 'patch',
  path: '/admin/v1/orgs/{org_id}/followups/{followup_id}',
  summary: 'Decide on a follow-up (in review, or planned): planned releases it, cancelled drops it',
  request: { params: OrgIdParam.extend({ followup_id: z.uuid() }), body: jsonBody(ResolveFollowupBody) },
  responses: { 200: json(z.object({ followup: Followup })), 409: json(z.object({ error: z.object({ code: z.string(), message: z.string() }) }), 'already sent or cancelled') },
});

export function registerFollowups(app: Group) {
  app.openapi(create, async (c) => {
    const { db, queue, log, clock } = c.get('services');
    const orgId = c.req.valid('param').org_id;
    await requireOrg(db, orgId);
    const followup = await createFollowup({ db, queue, log, now: clock.now(), orgId, input: c.req.valid('json') });
    return c.json({ followup } as never, 201);
  });
  app.openapi(list, async (c) => {
    const db = c.get('services').db;
    const orgId = c.req.valid('param').org_id;
    await requireOrg(db, orgId);
    return c.json({ followups: await listFollowups({ db, orgId, leadId: c.req.valid('query').lead_id }) } as never, 200);
  });
  app.openapi(resolve, async (c) => {
    const { db, queue, log, clock } = c.get('services');
    const { org_id: orgId, followup_id: followupId } = c.req.valid('param');
    await requireOrg(db, orgId);
    const followup = await resolveFollowup({ db, queue, log, now: clock.now(), orgId, followupId, status: c.req.valid('json').status });
    return c.json({ followup } as never, 200);
  });
}
