import { createRoute } from '@hono/zod-openapi';
import { requireScope } from '../../lib/http/auth';
import type { Group } from '../../lib/http/env';
import { errors, json, paginationMeta, serviceKey } from '../../lib/http/openapi';
import { listReports } from '../../lib/reports/list_reports';
import { tenantOf } from '../../lib/tenancy';
import { ListReportsQuery, ListReportsResponse } from './schema';

const route = createRoute({
  method: 'get',
  path: '/v1/reports',
  tags: ['reports'],
  summary: 'List generated intelligence reports (weekly briefs), newest first',
  security: serviceKey,
  middleware: [requireScope('reports.read')] as const,
  request: { query: ListReportsQuery },
  responses: { 200: json(ListReportsResponse), ...errors() },
});

export function registerListReports(app: Group) {
  app.openapi(route, async (c) => {
    const q = c.req.valid('query');
    const { reports, total } = await listReports({ db: c.get('services').db, tenant: tenantOf(c.get('auth')), input: q });
    return c.json({ reports, ...paginationMeta(reports.length, total, q.limit, q.offset) } as never, 200);
  });
}
