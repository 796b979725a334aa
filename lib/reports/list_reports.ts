import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import { reports } from '../../schema';
import type { Db } from '../db/types';
import { notFound } from '../errors';
import { paginationMeta } from '../http/openapi';
import { tenantFilter, type Tenant } from '../tenancy';
import { reportView } from './views';

// A client-locked key sees its client's reports only; organization-wide reports cover other clients too.
export async function listReports({ db, tenant, input }: { db: Db; tenant: Tenant; input: { type?: 'friday' | 'monday'; limit: number; offset: number } }) {
  const where: SQL[] = [tenantFilter(tenant, reports.orgId, reports.clientId)];
  if (input.type) where.push(eq(reports.briefType, input.type));
  const filter = and(...where);
  const [page, [{ total }]] = await Promise.all([
    db.select().from(reports).where(filter).orderBy(desc(reports.generatedAt), reports.id).limit(input.limit).offset(input.offset),
    db.select({ total: count() }).from(reports).where(filter),
  ]);
  return { reports: page.map(reportView), total: Number(total) };
}

export async function getReport({ db, tenant, reportId }: { db: Db; tenant: Tenant; reportId: string }) {
  const [row] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.id, reportId), tenantFilter(tenant, reports.orgId, reports.clientId)))
    .limit(1);
  if (!row) throw notFound('report');
  return reportView(row);
}

// The answers of GET /v1/reports and GET /v1/reports/{id}, built once for the core routes and the
// get_weekly_reports tool (same JSON through either face).

export async function listReportsAnswer(a: { db: Db; tenant: Tenant; input: { type?: 'friday' | 'monday'; limit: number; offset: number } }) {
  const { reports, total } = await listReports(a);
  return { reports, ...paginationMeta(reports.length, total, a.input.limit, a.input.offset) };
}

export async function getReportAnswer(a: { db: Db; tenant: Tenant; reportId: string }) {
  return { report: await getReport(a) };
}
