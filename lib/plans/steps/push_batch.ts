import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { batches, studioCampaigns } from '../../../schema';
import { sendingMailboxes } from '../../campaigns_studio/mailboxes';
import { pushBatch, type PushParams } from '../../campaigns_studio/push';
import type { StepKind } from '../step_kind';

const Params = z
  .object({
    studio_campaign_id: z.uuid(),
    batch_id: z.uuid(),
    name: z.string().min(1).max(200),
  })
  .strict();

/**
 * Pushes an approved batch to the sequencer as a Studio campaign (start_campaign proposes it). Buys nothing, cannot
 * be undone (mail may already be out). While the organization's push gate is closed it waits (StepDeferred) and
 * looks again every hour; the push itself is exactly once per lead (lib/campaigns_studio/push.ts).
 */
export const pushBatchStep: StepKind<PushParams> = {
  kind: 'push_batch',
  summary: (p) => `Push the approved batch to the sequencer as Studio campaign "${p.name}"`,
  params: Params,
  buys: false,
  undoable: false,
  credits: () => 0,
  dryRun: async (ctx, p) => {
    const db = ctx.services.db;
    const [campaign] = await db
      .select()
      .from(studioCampaigns)
      .where(and(eq(studioCampaigns.id, p.studio_campaign_id), eq(studioCampaigns.orgId, ctx.orgId), eq(studioCampaigns.clientId, ctx.clientId)));
    if (!campaign) return [`Studio campaign ${p.studio_campaign_id} is not this client's.`];
    if (campaign.batchId !== p.batch_id) return [`batch ${p.batch_id} is not Studio campaign ${campaign.id}'s batch.`];
    const problems: string[] = [];
    const [batch] = await db
      .select({ status: batches.status })
      .from(batches)
      .where(and(eq(batches.id, p.batch_id), eq(batches.orgId, ctx.orgId), eq(batches.clientId, ctx.clientId)));
    if (!batch) problems.push(`batch ${p.batch_id} is gone.`);
    else if (batch.status !== 'approved' && batch.status !== 'pushing') problems.push(`batch ${p.batch_id} is ${batch.status}, not approved.`);
    if (campaign.campaignId && (await sendingMailboxes(db, ctx.orgId, campaign.campaignId)).length === 0) {
      problems.push(
        `no ramping or active mailbox sends for campaign ${campaign.campaignId}: attach the client's ready mailboxes to it (attach_mailboxes with campaign_ids [${campaign.campaignId}]).`,
      );
    }
    return problems;
  },
  run: async (ctx, p) => pushBatch(ctx, p),
};
