import { z } from '@hono/zod-openapi';
import { ApiError } from '../../lib/errors';
import type { Group } from '../../lib/http/env';
import { json, jsonBody } from '../../lib/http/openapi';
import { requireOrg } from '../../lib/orgs/admin';
import { generateReport } from '../../lib/reports/generate_report';
import { clients } from '../../schema';
import { and, eq } from 'drizzle-orm';
import { Report } from '../reports/schema';
import { adminRoute } from './route';
import { GenerateReportBody, OrgIdParam } from './schema';

const route = adminRoute({
  method: 'post',
  path: '/admin/v1/orgs/{org_id}/reports/generate',
  summary: "Generate a friday or monday brief from the organization's (or one client's) real numbers",
  request: { params: OrgIdParam, body: jsonBody(GenerateReportBody) },
  responses: { 201: json(z.object({ report: Report }), 'Created') },
});

export function registerReports(app: Group) {
  app.openapi(route, async (c) => {
    const { db, clock } = c.get('services');
    const orgId = c.req.valid('param').org_id;
    const body = c.req.valid('json');
    await requireOrg(db, orgId);
    if (body.client_id) {
      const [client] = await db.select({ id: clients.id }).from(clients).where(and(eq(clients.id, body.client_id), eq(clients.orgId, orgId)));
      if (!client) throw new ApiError('validation_error', 'client_id: no such client in this organization');
    }
    const report = await generateReport({ db, orgId, clientId: body.client_id ?? null, briefType: body.brief_type, now: clock.now() });
    return c.json({ report } as never, 201);
  });
}
