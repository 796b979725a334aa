// campaign_results: what a Studio campaign did. With the simulated sequencer every figure comes from its send rows
// (sim_sequencer_sends of the campaign whose reference is the Studio campaign id); `positive` is the core leads of
// the campaign classified hot or warm (the replies went through the core ingestion). With Instantly the port offers
// no send figures: sent and bounced are null, replied and positive come from the core replies its webhook brought.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AgencyCall } from '../agency/operation';
import { findClient } from '../agency/clients/view';
import { rows, type Db } from '../db/types';
import { findStudioCampaign, StudioCampaignSchema, studioCampaignView } from './view';

export const POSITIVE = ['hot', 'warm'] as const;

const StepFigures = z.object({ step: z.number().int(), sent: z.number().int(), bounced: z.number().int(), replied: z.number().int() });
export const CampaignResultsSchema = StudioCampaignSchema.extend({
  prospects_contacted: z.number().int().nullable().describe('distinct prospects mailed at least once'),
  sent: z.number().int().nullable().describe('mails out, all steps; null when the sequencer does not report it'),
  bounced: z.number().int().nullable(),
  replied: z.number().int(),
  positive: z.number().int().describe('replied prospects classified hot or warm'),
  by_step: z.array(StepFigures),
  simulated: z.literal(true).optional(),
});

type StepRow = { step: number; sent: number; bounced: number; replied: number; prospects: number };

export async function simFigures(db: Db, orgId: string, studioCampaignId: string) {
  const steps = await rows<StepRow>(
    db,
    sql`select x.step, count(*)::int as sent, count(*) filter (where x.outcome = 'bounced')::int as bounced,
               count(*) filter (where x.outcome = 'replied')::int as replied, count(distinct x.lead_email)::int as prospects
        from sim_sequencer_sends x join sim_sequencer_campaigns q on q.id = x.campaign_id
        where q.org_id = ${orgId}::uuid and q.reference = ${studioCampaignId}
        group by x.step order by x.step`,
  );
  const by_step = steps.map((s) => ({ step: Number(s.step), sent: Number(s.sent), bounced: Number(s.bounced), replied: Number(s.replied) }));
  return {
    by_step,
    prospects_contacted: Number(steps.find((s) => Number(s.step) === 1)?.prospects ?? 0),
    sent: by_step.reduce((n, s) => n + s.sent, 0),
    bounced: by_step.reduce((n, s) => n + s.bounced, 0),
    replied: by_step.reduce((n, s) => n + s.replied, 0),
  };
}

/** Core leads of the campaign: prospects who replied, and those whose classification is positive. */
async function coreFigures(db: Db, orgId: string, campaignId: string | null) {
  if (!campaignId) return { replied: 0, positive: 0 };
  const [r] = await rows<{ replied: number; positive: number }>(
    db,
    sql`select count(*)::int as replied, count(*) filter (where classification in ('hot', 'warm'))::int as positive
        from leads where org_id = ${orgId}::uuid and campaign_id = ${campaignId}::uuid and reply_count > 0`,
  );
  return { replied: Number(r?.replied ?? 0), positive: Number(r?.positive ?? 0) };
}

export async function campaignResults(call: AgencyCall, input: { client_id: string; campaign_id: string }) {
  const { db } = call.services;
  const orgId = call.auth.orgId;
  await findClient(db, orgId, input.client_id);
  const { row, step } = await findStudioCampaign(db, orgId, input.client_id, input.campaign_id);
  const core = await coreFigures(db, orgId, row.campaignId);
  const view = studioCampaignView(row, step);
  if (row.sequencer === 'sim') {
    const sim = await simFigures(db, orgId, row.id);
    return { campaign: { ...view, ...sim, positive: core.positive, simulated: true as const } };
  }
  return { campaign: { ...view, prospects_contacted: null, sent: null, bounced: null, replied: core.replied, positive: core.positive, by_step: [] } };
}
