import type { Group } from '../../lib/http/env';
import { keyRoute } from '../../lib/http/route';
import { errors, json, UuidParam } from '../../lib/http/openapi';
import { getReport } from '../../lib/reports/list_reports';
import { tenantOf } from '../../lib/tenancy';
import { GetReportResponse } from './schema';

const route = keyRoute('reports.read', {
  method: 'get',
  path: '/v1/reports/{id}',
  tags: ['reports'],
  summary: 'One report',
  request: { params: UuidParam },
  responses: { 200: json(GetReportResponse), ...errors([404, 'not_found']) },
});

export function registerGetReport(app: Group) {
  app.openapi(route, async (c) => {
    const report = await getReport({ db: c.get('services').db, tenant: tenantOf(c.get('auth')), reportId: c.req.valid('param').id });
    return c.json({ report } as never, 200);
  });
}
