// How a Studio campaign reads in every answer (start_campaign, campaign_results, client_today). Its status is the
// stored one, except while the push step has not run: then the step tells (approved or scheduled → `scheduled`, a
// step that failed → `failed` with the step's error).
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { planSteps, studioCampaigns, type StudioCampaignStatus } from '../../schema';
import type { Db } from '../db/types';
import { notFound } from '../errors';

export type StudioCampaignRow = typeof studioCampaigns.$inferSelect;
type StepBits = { status: string; error: string | null } | null;

export const STUDIO_CAMPAIGN_STATUSES = ['proposed', 'scheduled', 'waiting_gate', 'pushing', 'pushed', 'failed'] as const satisfies readonly StudioCampaignStatus[];

export const StudioCampaignSchema = z.object({
  id: z.string(),
  client_id: z.string(),
  batch_id: z.string(),
  name: z.string(),
  status: z.enum(STUDIO_CAMPAIGN_STATUSES),
  campaign_id: z.string().nullable().describe('the core campaign its replies go into'),
  plan_step_id: z.string().nullable(),
  sequencer: z.string(),
  provider_campaign_id: z.string().nullable(),
  mailboxes: z.array(z.object({ address: z.string(), daily_cap: z.number().int() })),
  pushed: z.number().int(),
  skipped_never_mail: z.number().int(),
  last_error: z.string().nullable(),
  pushed_at: z.string().nullable(),
  created_by: z.string(),
  created_at: z.string(),
});
export type StudioCampaignView = z.infer<typeof StudioCampaignSchema>;

export function effectiveStatus(row: Pick<StudioCampaignRow, 'status' | 'lastError'>, step: StepBits): { status: StudioCampaignStatus; lastError: string | null } {
  if (row.status === 'proposed' && step) {
    if (step.status === 'approved' || step.status === 'scheduled' || step.status === 'running') return { status: 'scheduled', lastError: row.lastError };
    if (step.status === 'failed') return { status: 'failed', lastError: step.error ?? row.lastError };
  }
  if ((row.status === 'pushing' || row.status === 'waiting_gate') && step?.status === 'failed') return { status: 'failed', lastError: step.error ?? row.lastError };
  return { status: row.status, lastError: row.lastError };
}

export function studioCampaignView(row: StudioCampaignRow, step: StepBits): StudioCampaignView {
  const { status, lastError } = effectiveStatus(row, step);
  return {
    id: row.id,
    client_id: row.clientId,
    batch_id: row.batchId,
    name: row.name,
    status,
    campaign_id: row.campaignId,
    plan_step_id: row.planStepId,
    sequencer: row.sequencer,
    provider_campaign_id: row.providerCampaignId,
    mailboxes: row.mailboxes,
    pushed: row.pushed,
    skipped_never_mail: row.skippedNeverMail,
    last_error: lastError,
    pushed_at: row.pushedAt?.toISOString() ?? null,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
  };
}

/** The client's Studio campaign with its push step's status, or not_found (another org's or client's id alike). */
export async function findStudioCampaign(db: Db, orgId: string, clientId: string, id: string) {
  const [found] = await db
    .select({ row: studioCampaigns, stepStatus: planSteps.status, stepError: planSteps.error })
    .from(studioCampaigns)
    .leftJoin(planSteps, eq(planSteps.id, studioCampaigns.planStepId))
    .where(and(eq(studioCampaigns.id, id), eq(studioCampaigns.orgId, orgId), eq(studioCampaigns.clientId, clientId)));
  if (!found) throw notFound('studio campaign');
  return { row: found.row, step: found.stepStatus ? { status: found.stepStatus, error: found.stepError } : null };
}
