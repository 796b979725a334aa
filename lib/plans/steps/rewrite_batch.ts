import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { plans } from '../../../schema';
import { findClient } from '../../agency/clients/view';
import { chargeCredits } from '../../credits/ledger';
import { ApiError } from '../../errors';
import { planRound, writeRound } from '../../writing/round';
import { writerOf } from '../../writing/writer';
import type { StepKind } from '../step_kind';
import { oncePerStep } from './effect';

const Params = z
  .object({
    batch_id: z.uuid({ message: "must be the id of the client's open batch (a UUID)" }),
    leads: z.number().int().min(1).max(1000).describe('leads to rewrite: the credits the person approves'),
    lead_ids: z.array(z.uuid()).min(1).max(1000).optional().describe('only these leads; default every lead not rejected'),
  })
  .strict()
  .refine((p) => !p.lead_ids || (p.lead_ids.length === p.leads && new Set(p.lead_ids).size === p.leads), { message: 'leads must equal the number of distinct lead_ids', path: ['leads'] });
type Params = z.infer<typeof Params>;

/** What the round would write now, or the sentence saying why it cannot run as approved. */
async function check(ctx: Parameters<StepKind['dryRun']>[0], p: Params, db = ctx.services.db) {
  const client = await findClient(db, ctx.orgId, ctx.clientId);
  const round = await planRound(db, ctx.orgId, client.id, p.lead_ids, ctx.now, p.batch_id);
  if (round.targets.length !== p.leads) throw new ApiError('conflict', `the batch now has ${round.targets.length} leads to rewrite, not the ${p.leads} this step was approved for; propose it again`);
  return { client, round };
}

/**
 * A rewrite beyond the rewrite limit (spec §8), which only a person may confirm: start_writing's preview names
 * this step, a person approves the plan in the app, and on its day the step rewrites the batch and charges 1 credit
 * per lead in its own transaction (reference rewrite_batch:<step id>, so a retried step charges nothing again).
 * The writing round records the approver as who confirmed it. Written mails are paid for: not undoable.
 */
export const rewriteBatchStep: StepKind<Params> = {
  kind: 'rewrite_batch',
  summary: (p) => `Rewrite ${p.leads} leads of batch ${p.batch_id} (${p.leads} credits, beyond the rewrite limit)`,
  params: Params,
  buys: false,
  undoable: false,
  needsPerson: true,
  credits: (p) => p.leads,
  dryRun: async (ctx, p) => {
    try {
      await check(ctx, p);
      return [];
    } catch (err) {
      if (err instanceof ApiError) return [`${err.message.charAt(0).toUpperCase()}${err.message.slice(1)}.`];
      throw err;
    }
  },
  run: async (ctx, p) =>
    oncePerStep(ctx, 'rewrite_batch', async (tx) => {
      const { client, round } = await check(ctx, p, tx);
      const [plan] = await tx.select({ approvedBy: plans.approvedBy }).from(plans).where(and(eq(plans.id, ctx.planId), eq(plans.orgId, ctx.orgId)));
      const summary = await writeRound(tx, { orgId: ctx.orgId, client, plan: round, writer: writerOf(ctx.services), confirmedBy: plan?.approvedBy ?? ctx.actor, planStepId: ctx.stepId, now: ctx.now });
      await chargeCredits(tx, { orgId: ctx.orgId, key: null, reference: `rewrite_batch:${ctx.stepId}`, amount: summary.credits, reason: 'rewrite_batch', now: ctx.now });
      return { ...summary };
    }),
};
