// start_writing (two steps, paid): writes the open batch's leads through the writer port. The preview writes two
// sample leads for free and prices the round (1 credit per lead written); the confirm writes every lead in the
// confirm's transaction, which also charges the credits and writes the audit row (lib/agency/confirm.ts).
import { z } from 'zod';
import { sha256Hex } from '../crypto/secrets';
import type { AgencyCall } from '../agency/operation';
import { findClient } from '../agency/clients/view';
import { runTwoStep, type Applied, type PreviewAnswer, type Preview, type TwoStepDef } from '../agency/confirm';
import { balanceOf } from '../credits/ledger';
import type { Db } from '../db/types';
import { writerContext, writerLeads } from './context';
import { planRound, writeRound, type RoundPlan } from './round';
import { writerOf } from './writer';
import { WrittenMailSchema } from '../batches/mails';

/** Leads the preview writes for free, so the caller sees the mails before paying. */
export const SAMPLE_LEADS = 2;

const RewriteLimitSchema = z.object({
  window_days: z.number().int(),
  limit: z.number().int().describe('rewrite credits allowed in the window: 2 × the batch size'),
  used: z.number().int().describe('rewrite credits already spent in the window'),
  after: z.number().int().describe('used plus this round'),
});

export const StartWritingPreviewSchema = z.object({
  batch_id: z.string(),
  batch_status: z.string(),
  sequence_version: z.number().int(),
  leads: z.number().int().describe('leads this round writes'),
  first_writes: z.number().int(),
  rewrites: z.number().int(),
  credits: z.number().int(),
  balance: z.number().int(),
  rules_active: z.array(z.string()),
  rewrite_limit: RewriteLimitSchema,
  person_confirmation: z
    .object({ how: z.string(), propose: z.object({ kind: z.literal('rewrite_batch'), params: z.record(z.string(), z.unknown()) }) })
    .nullable()
    .describe('beyond the rewrite limit: how a person confirms'),
  sample: z.array(z.object({ lead_id: z.string(), mails: z.array(WrittenMailSchema), rules_used: z.array(z.string()) })),
});
export type StartWritingPreview = z.infer<typeof StartWritingPreviewSchema>;

export const RoundSchema = z.object({
  leads: z.number().int(),
  first_writes: z.number().int(),
  rewrites: z.number().int(),
  credits: z.number().int(),
  sequence_version: z.number().int(),
  rules_used: z.array(z.string()),
});
export const StartWritingResultSchema = z.object({
  batch: z.object({ id: z.string(), status: z.string(), revision: z.number().int(), sequence_version: z.number().int() }),
  round: RoundSchema,
});
export type StartWritingResult = z.infer<typeof StartWritingResultSchema>;

export type StartWritingInput = { client_id: string; lead_ids?: string[]; confirm_token?: string | null };

const personParams = (plan: RoundPlan, leadIds: string[] | undefined) => ({
  batch_id: plan.batch.id,
  leads: plan.targets.length,
  ...(leadIds ? { lead_ids: plan.targets.map((t) => t.poolLeadId) } : {}),
});

async function previewOf(call: AgencyCall, input: StartWritingInput, db: Db): Promise<Preview<StartWritingPreview>> {
  const { orgId } = call.auth;
  const client = await findClient(db, orgId, input.client_id);
  const plan = await planRound(db, orgId, client.id, input.lead_ids, call.now);
  const ctx = await writerContext(db, orgId, client, plan.sequence);
  // The sample is for the person reading the preview; the confirm re-reads the state inside its transaction and
  // writes every lead anyway, so it skips the sample (a hosted model would be paid twice for it).
  const confirming = db !== call.services.db;
  const sampleLeads = confirming ? [] : await writerLeads(db, orgId, client.id, plan.targets.slice(0, SAMPLE_LEADS).map((t) => t.poolLeadId), ctx.senderName);
  const sample = confirming ? [] : await writerOf(call.services).write(ctx, sampleLeads);
  const credits = plan.targets.length;
  const balance = await balanceOf(db, orgId);
  const { rewrite } = plan;
  const params = personParams(plan, input.lead_ids);
  const preview: StartWritingPreview = {
    batch_id: plan.batch.id,
    batch_status: plan.batch.status,
    sequence_version: plan.sequence.version,
    leads: plan.targets.length,
    first_writes: plan.firstWrites,
    rewrites: plan.rewrites,
    credits,
    balance,
    rules_active: ctx.rules.map((r) => r.id),
    rewrite_limit: { window_days: rewrite.windowDays, limit: rewrite.limit, used: rewrite.used, after: rewrite.after },
    person_confirmation: rewrite.exceeded
      ? {
          how: `propose_action with kind rewrite_batch and these params; a person approves the plan in the app (POST /admin/v1/plans/{plan_id}/approve) and the rewrite runs on its day, charging ${credits} credits`,
          propose: { kind: 'rewrite_batch', params },
        }
      : null,
    sample: sample.map((s) => ({ lead_id: s.leadId, mails: s.mails, rules_used: s.rulesUsed })),
  };
  // Everything the mails depend on: a change to any of it between preview and confirm is preview_stale.
  const state = {
    batch: plan.batch.id,
    revision: plan.batch.revision,
    status: plan.batch.status,
    sequence: plan.sequence.version,
    targets: plan.targets.map((t) => [t.poolLeadId, t.writes]),
    rules: ctx.rules.map((r) => [r.id, r.spec]),
    playbook: ctx.playbook,
    docs: await sha256Hex(ctx.agencyDocs),
    sender: ctx.senderName,
    rewrite_used: rewrite.used,
  };
  if (rewrite.exceeded) {
    return {
      preview,
      state,
      credits,
      blockedBy: 'person_confirmation_required',
      blockedMessage: `rewriting would bring this batch's rewrite credits in ${rewrite.windowDays} days to ${rewrite.after}, above its limit of ${rewrite.limit} (2 × ${plan.leadsInBatch} leads); a person confirms it: ${preview.person_confirmation!.how}`,
    };
  }
  if (balance < credits) {
    return { preview, state, credits, blockedBy: 'insufficient_credits', blockedMessage: `writing needs ${credits} credits and the organization has ${balance}` };
  }
  return { preview, state, credits };
}

async function applyOf(call: AgencyCall, input: StartWritingInput, tx: Db): Promise<Applied<StartWritingResult>> {
  const { orgId } = call.auth;
  const client = await findClient(tx, orgId, input.client_id);
  const plan = await planRound(tx, orgId, client.id, input.lead_ids, call.now);
  const round = await writeRound(tx, { orgId, client, plan, writer: writerOf(call.services), confirmedBy: call.actor, planStepId: null, now: call.now });
  const { batch_id, revision, ...counts } = round;
  return {
    result: { batch: { id: batch_id, status: 'written', revision, sequence_version: round.sequence_version }, round: counts },
    audit: { action: 'batch.written', target: `batch:${batch_id}`, detail: { client_id: client.id, ...counts } },
  };
}

export const startWritingDef: TwoStepDef<StartWritingInput, StartWritingPreview, StartWritingResult> = { tool: 'start_writing', preview: previewOf, apply: applyOf };

/** Both calls of start_writing: the priced preview, or the written round. */
export async function startWriting(call: AgencyCall, input: StartWritingInput): Promise<PreviewAnswer<StartWritingPreview> | StartWritingResult> {
  const out = await runTwoStep(call, startWritingDef, input);
  return out.confirmed ? out.result : out.answer;
}
