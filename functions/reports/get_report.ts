import type { Group } from '../../lib/http/env';
import { keyRoute } from '../../lib/http/route';
import { errors, json, UuidParam } from '../../lib/http/openapi';
import { getReportAnswer } from '../../lib/reports/list_reports';
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
    return c.json((await getReportAnswer({ db: c.get('services').db, tenant: tenantOf(c.get('auth')), reportId: c.req.valid('param').id })) as never, 200);
  });
}
