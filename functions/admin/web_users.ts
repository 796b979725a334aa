import { z } from '@hono/zod-openapi';
import type { Group } from '../../lib/http/env';
import { json, jsonBody } from '../../lib/http/openapi';
import { inviteWebUser } from '../../lib/web/users';
import { deskUrl } from '../../lib/web/urls';
import { adminRoute } from './route';
import { OrgIdParam } from './schema';

const InviteBody = z
  .strictObject({
    email: z.email().max(320),
    name: z.string().trim().min(1).max(200),
  })
  .openapi('WebUserInvite');

const WebUser = z
  .object({
    id: z.uuid(),
    kind: z.enum(['portal', 'desk']),
    org_id: z.uuid(),
    client_id: z.uuid().nullable(),
    email: z.string(),
    name: z.string(),
    created_at: z.string(),
  })
  .openapi('WebUser');

const Invited = z.object({ user: WebUser, sign_in_url: z.string().describe('One-time link, valid 15 minutes') });

const portalUsers = adminRoute({
  method: 'post',
  path: '/admin/v1/clients/{client_id}/portal-users',
  summary: "Add a person to a client's portal (or find them) and issue a one-time sign-in link",
  request: { params: z.object({ client_id: z.uuid() }), body: jsonBody(InviteBody) },
  responses: { 201: json(Invited, 'Created') },
});

const deskUsers = adminRoute({
  method: 'post',
  path: '/admin/v1/orgs/{org_id}/desk-users',
  summary: "Add a person to the agency's review desk (or find them) and issue a one-time sign-in link",
  request: { params: OrgIdParam, body: jsonBody(InviteBody) },
  responses: { 201: json(Invited, 'Created') },
});

export function registerWebUsers(app: Group) {
  app.openapi(portalUsers, async (c) => {
    const { db, clock, config } = c.get('services');
    const result = await inviteWebUser({ db, now: clock.now(), target: { kind: 'portal', clientId: c.req.valid('param').client_id }, input: c.req.valid('json'), signInBase: config.portalUrl });
    return c.json(result, 201);
  });
  app.openapi(deskUsers, async (c) => {
    const { db, clock, config } = c.get('services');
    const result = await inviteWebUser({ db, now: clock.now(), target: { kind: 'desk', orgId: c.req.valid('param').org_id }, input: c.req.valid('json'), signInBase: deskUrl(config) });
    return c.json(result, 201);
  });
}
