import type { Group } from '../../lib/http/env';
import { keyRoute } from '../../lib/http/route';
import { errors, json, paginationMeta } from '../../lib/http/openapi';
import { listReports } from '../../lib/reports/list_reports';
import { tenantOf } from '../../lib/tenancy';
import { ListReportsQuery, ListReportsResponse } from './schema';

const route = keyRoute('reports.read', {
  method: 'get',
  path: '/v1/reports',
  tags: ['reports'],
  summary: 'List generated intelligence reports (weekly briefs), newest first',
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
