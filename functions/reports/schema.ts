import { z } from '@hono/zod-openapi';
import { PaginationMeta, pageQuery } from '../../lib/http/openapi';

export const BriefType = z.enum(['friday', 'monday']);

export const Report = z
  .object({
    id: z.uuid(),
    title: z.string(),
    brief_type: BriefType,
    target_role: z.string(),
    executive_summary: z.string(),
    summary_bullets: z.array(z.string()),
    stats_snapshot: z.record(z.string(), z.unknown()),
    period_start: z.string().openapi({ format: 'date' }),
    period_end: z.string().openapi({ format: 'date' }),
    generated_at: z.string(),
    client_id: z.uuid().nullable().openapi({ description: 'null for an organization-wide brief' }),
  })
  .openapi('Report');

export const ListReportsQuery = z.object({ type: BriefType.optional(), ...pageQuery(20, 50) });
export const ListReportsResponse = z.object({ reports: z.array(Report), ...PaginationMeta }).openapi('ReportList');
export const GetReportResponse = z.object({ report: Report });
