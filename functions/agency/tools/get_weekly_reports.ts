import { z } from 'zod';
import { idArg, intArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { ApiError } from '../../../lib/errors';
import { getReportAnswer, listReportsAnswer } from '../../../lib/reports/list_reports';
import { tenantOf } from '../../../lib/tenancy';
import { BriefType, GetReportResponse, ListReportsQuery, ListReportsResponse } from '../../reports/schema';

// One tool for the core GET /v1/reports and GET /v1/reports/{id} (agency-operator.md §2): without report_id the
// list, with it that one report. The list's paging defaults come from the route's own query schema.
export const getWeeklyReportsOp = defineOperation({
  name: 'get_weekly_reports',
  rest: 'core',
  method: 'GET',
  path: '/v1/reports',
  scope: 'reports.read',
  toolset: 'replies',
  write: false,
  summary: 'The weekly briefs (friday and monday reports), newest first; with report_id, that one report (GET /v1/reports/{report_id}).',
  description: [
    'The weekly intelligence briefs, newest first, as GET /v1/reports lists them: type (friday or monday) filters,',
    'limit (1-50, default 20) and offset page. With report_id it answers that one report as GET /v1/reports/{report_id} ({ report });',
    'the list arguments are then refused.',
  ].join(' '),
  input: z
    .object({
      report_id: idArg('report').optional(),
      type: BriefType.optional(),
      limit: intArg(1, 50).optional(),
      offset: intArg(0, 1_000_000).optional(),
    })
    .strict(),
  output: z.union([ListReportsResponse, GetReportResponse]),
  run: async (call, { report_id, ...list }) => {
    const db = call.services.db;
    const tenant = tenantOf(call.auth);
    if (report_id === undefined) return { body: await listReportsAnswer({ db, tenant, input: ListReportsQuery.parse(list) }) };
    for (const name of ['type', 'limit', 'offset'] as const) {
      if (list[name] !== undefined) throw new ApiError('validation_error', `${name}: not available with report_id (it reads one report)`);
    }
    return { body: await getReportAnswer({ db, tenant, reportId: report_id }) };
  },
});
