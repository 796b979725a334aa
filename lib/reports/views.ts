import { reports } from '../../schema';

export function reportView(r: typeof reports.$inferSelect) {
  return {
    id: r.id,
    title: r.title,
    brief_type: r.briefType,
    target_role: r.targetRole,
    executive_summary: r.executiveSummary,
    summary_bullets: r.summaryBullets,
    stats_snapshot: r.statsSnapshot,
    period_start: r.periodStart,
    period_end: r.periodEnd,
    generated_at: r.generatedAt.toISOString(),
    client_id: r.clientId,
  };
}
export type ReportView = ReturnType<typeof reportView>;
