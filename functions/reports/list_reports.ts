import type { Group } from '../../lib/http/env';
import { keyRoute } from '../../lib/http/route';
import { errors, json } from '../../lib/http/openapi';
import { listReportsAnswer } from '../../lib/reports/list_reports';
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
    return c.json((await listReportsAnswer({ db: c.get('services').db, tenant: tenantOf(c.get('auth')), input: c.req.valid('query') })) as never, 200);
  });
}
