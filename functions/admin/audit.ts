import { z } from '@hono/zod-openapi';
import type { Group } from '../../lib/http/env';
import { json } from '../../lib/http/openapi';
import { listAuditEntries } from '../../lib/orgs/audit_log';
import { adminRoute } from './route';
import { AuditEntry, AuditQuery, OrgIdParam } from './schema';

const route = adminRoute({
  method: 'get',
  path: '/admin/v1/orgs/{org_id}/audit',
  summary: 'The agency audit log, newest first: one entry per agency write (actor admin, system, key:<name>, mcp:<name>). Pages by cursor: pass next_cursor back; null on the last page',
  request: { params: OrgIdParam, query: AuditQuery },
  responses: { 200: json(z.object({ entries: z.array(AuditEntry), next_cursor: z.uuid().nullable() })) },
});

export function registerAudit(app: Group) {
  app.openapi(route, async (c) => c.json(await listAuditEntries(c.get('services').db, c.req.valid('param').org_id, c.req.valid('query')), 200));
}
