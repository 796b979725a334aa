// skip_batch's two steps: the open batch is given up. Its leads (rejected ones too: skipping undoes the batch, not
// the reviewer's judgement, which allocate_batch still honours) go back to the pool as `new`; the batch and its
// rows stay as history. Credits spent writing it are not refunded: the preview says how many.
import { and, eq, sql } from 'drizzle-orm';
import { batchWrites, planSteps, studioCampaigns } from '../../schema';
import { findClient } from '../agency/clients/view';
import { runTwoStep, type PreviewAnswer, type TwoStepDef } from '../agency/confirm';
import type { AgencyCall } from '../agency/operation';
import { releaseLeads, type BatchInput } from './approve';
import { requireOpenBatch } from './guards';
import { batchView, bumpRevision, type BatchView } from './view';

export type SkipPreview = { batch: BatchView; returning_to_pool: number; credits_spent: number };

const skipDef: TwoStepDef<BatchInput, SkipPreview, { batch: BatchView }> = {
  tool: 'skip_batch',
  async preview(call, input, db) {
    const scope = { orgId: call.auth.orgId, clientId: input.client_id };
    const lock = db !== call.services.db;
    await findClient(db, scope.orgId, scope.clientId, lock);
    const batch = await requireOpenBatch(db, scope, lock);
    const view = await batchView(db, batch);
    const [spent] = await db
      .select({ credits: sql<number>`coalesce(sum(${batchWrites.credits}), 0)::int` })
      .from(batchWrites)
      .where(and(eq(batchWrites.batchId, batch.id), eq(batchWrites.orgId, scope.orgId)));
    // A push that may still run would fail on a skipped batch: the plan's step goes first (change_plan remove).
    const [push] = await db
      .select({ campaignId: studioCampaigns.id, stepId: planSteps.id, planId: planSteps.planId, status: planSteps.status })
      .from(studioCampaigns)
      .innerJoin(planSteps, eq(planSteps.id, studioCampaigns.planStepId))
      .where(and(eq(studioCampaigns.batchId, batch.id), eq(studioCampaigns.orgId, scope.orgId), sql`${planSteps.status} in ('waiting', 'approved', 'scheduled', 'running')`));
    return {
      preview: { batch: view, returning_to_pool: view.leads, credits_spent: Number(spent.credits) },
      state: { batch: batch.id, revision: batch.revision, push: push?.stepId ?? null },
      credits: 0,
      ...(push && {
        blockedBy: 'conflict' as const,
        blockedMessage: `batch ${batch.id} has Studio campaign ${push.campaignId} whose push step ${push.stepId} is ${push.status} in plan ${push.planId}: remove that step first (change_plan with op remove), then skip the batch`,
      }),
    };
  },
  async apply(call, input, tx, p) {
    const returned = await releaseLeads(tx, call.auth.orgId, p.preview.batch.id, call.now, 'all');
    const batch = await bumpRevision(tx, p.preview.batch.id, call.now, { status: 'skipped' });
    return {
      result: { batch: await batchView(tx, batch) },
      audit: { action: 'batch.skipped', target: `batch:${batch.id}`, detail: { client_id: input.client_id, was: p.preview.batch.status, returned_to_pool: returned, credits_spent: p.preview.credits_spent } },
    };
  },
};

/** Both calls of skip_batch: the preview, or the skipped batch. */
export async function skipBatch(call: AgencyCall, input: BatchInput): Promise<PreviewAnswer<SkipPreview> | { batch: BatchView }> {
  const out = await runTwoStep(call, skipDef, input);
  return out.confirmed ? out.result : out.answer;
}
