// start_campaign: one call, not two (the spec's two-step list leaves it out): it pushes nothing. It turns the
// client's approved batch into a Studio campaign (proposed) with its core campaign (where replies are ingested) and
// puts a push_batch step into the client's one open plan; the plan's approval, the push gate and the step's day
// decide when anything reaches the sequencer.
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { batches, campaigns, mailboxCampaigns, mailboxes, organizations, studioCampaigns } from '../../schema';
import { writeAudit } from '../agency/audit';
import { findClient } from '../agency/clients/view';
import type { AgencyCall } from '../agency/operation';
import type { Db } from '../db/types';
import { ApiError, notFound } from '../errors';
import { dayIn } from '../pool/day';
import { proposeStepsIn } from '../plans/propose';
import { whoOf } from '../plans/rows';
import { planView, stepView, type PlanView, type StepView } from '../plans/view';
import { usableMailboxCount } from './mailboxes';
import { findStudioCampaign, studioCampaignView, type StudioCampaignView } from './view';

export type StartCampaignInput = { client_id: string; batch_id?: string; name?: string; day?: number };
export type StartCampaignResult = { studio_campaign: StudioCampaignView; plan: PlanView; step: StepView };

async function batchToStart(tx: Db, orgId: string, clientId: string, batchId: string | undefined) {
  const where = batchId ? and(eq(batches.id, batchId), eq(batches.orgId, orgId), eq(batches.clientId, clientId)) : and(eq(batches.orgId, orgId), eq(batches.clientId, clientId));
  // Locked: two start_campaign calls for one batch are serialised here, the second finds the first's campaign.
  const [batch] = await tx.select().from(batches).where(where).orderBy(desc(batches.createdAt), desc(batches.id)).limit(1).for('update');
  if (!batch && batchId) throw notFound('batch');
  if (!batch) throw new ApiError('conflict', 'the client has no batch yet: compose one with allocate_batch, write it, review it and approve it (approve_batch) first');
  return batch;
}

export async function startCampaign(call: AgencyCall, input: StartCampaignInput): Promise<StartCampaignResult> {
  const orgId = call.auth.orgId;
  return call.services.db.transaction(async (tx) => {
    // The client row first, the batch second: the order of every batch and review confirm, so none deadlocks with this.
    const client = await findClient(tx, orgId, input.client_id, true);
    const batch = await batchToStart(tx, orgId, client.id, input.batch_id);
    const [existing] = await tx.select({ id: studioCampaigns.id }).from(studioCampaigns).where(eq(studioCampaigns.batchId, batch.id));
    if (existing) {
      const current = await findStudioCampaign(tx, orgId, client.id, existing.id);
      // A push step taken out of the plan (change_plan) or failed leaves the campaign without a way to push: it gets
      // a new step. The push is exactly once per lead, so a failed push resumes where it stopped.
      const orphaned = current.row.status !== 'pushed' && (!current.step || current.step.status === 'failed' || current.step.status === 'undone');
      if (!orphaned) {
        throw new ApiError('conflict', `batch ${batch.id} already has Studio campaign ${existing.id} (one campaign per batch)`, { body: { studio_campaign: studioCampaignView(current.row, current.step) } });
      }
      return proposePush(call, tx, current.row, input.day ?? 0, 'studio_campaign.push_proposed_again');
    }
    if (batch.status !== 'approved') {
      throw new ApiError('conflict', `batch ${batch.id} is ${batch.status}, not approved: a campaign starts from an approved batch (approve_batch)`, {
        body: { batch: { id: batch.id, status: batch.status } },
      });
    }
    if ((await usableMailboxCount(tx, orgId, client.id)) === 0) {
      throw new ApiError('conflict', 'the client has no mailbox to send from (none warming, ready, ramping or active): set up domains and mailboxes first (choose_domains)');
    }
    const [org] = await tx.select({ timezone: organizations.timezone }).from(organizations).where(eq(organizations.id, orgId));
    const name = input.name ?? `${client.name} ${dayIn(org?.timezone ?? 'UTC', call.now)}`;
    const [core] = await tx.insert(campaigns).values({ orgId, clientId: client.id, name, provider: null, status: 'active', sent: 0, opened: 0, statsLastSyncedAt: call.now, createdAt: call.now }).returning();
    // Mailboxes already sending for the client send for this campaign too; reserves are never taken silently (that
    // would start their ramp and use up auto-protect's spares): attach_mailboxes adds them to campaign_id.
    await tx.execute(sql`
      insert into ${mailboxCampaigns} (mailbox_id, campaign_id, org_id, attached_at)
      select distinct m.id, ${core.id}::uuid, m.org_id, ${call.now.toISOString()}::timestamptz
      from ${mailboxes} m join ${mailboxCampaigns} mc on mc.mailbox_id = m.id
      where m.org_id = ${orgId}::uuid and m.client_id = ${client.id}::uuid and m.status in ('ramping', 'active')
      on conflict do nothing`);
    const [row] = await tx
      .insert(studioCampaigns)
      .values({ orgId, clientId: client.id, batchId: batch.id, name, status: 'proposed', campaignId: core.id, sequencer: call.services.studio.sequencer.kind, createdBy: call.actor, createdAt: call.now, updatedAt: call.now })
      .returning();
    return proposePush(call, tx, row, input.day ?? 0, 'studio_campaign.proposed');
  });
}

/** The push_batch step for the campaign in the client's open plan, the campaign linked to it, and the audit row. */
async function proposePush(call: AgencyCall, tx: Db, row: typeof studioCampaigns.$inferSelect, day: number, action: string): Promise<StartCampaignResult> {
  const orgId = call.auth.orgId;
  const out = await proposeStepsIn(tx, whoOf(call), row.clientId, [{ kind: 'push_batch', params: { studio_campaign_id: row.id, batch_id: row.batchId, name: row.name }, day }], { audit: false });
  const step = out.steps[0];
  const [linked] = await tx.update(studioCampaigns).set({ planStepId: step.id, updatedAt: call.now }).where(eq(studioCampaigns.id, row.id)).returning();
  const sending = row.campaignId
    ? await tx
        .select({ id: mailboxes.id })
        .from(mailboxCampaigns)
        .innerJoin(mailboxes, eq(mailboxes.id, mailboxCampaigns.mailboxId))
        .where(and(eq(mailboxCampaigns.campaignId, row.campaignId), inArray(mailboxes.status, ['ramping', 'active'])))
    : [];
  await writeAudit(tx, {
    orgId,
    actor: call.actor,
    action,
    target: `studio_campaign:${row.id}`,
    detail: { client_id: row.clientId, batch_id: row.batchId, campaign_id: row.campaignId, plan_id: out.plan.id, step_id: step.id, day: step.day, mailboxes_sending: sending.length },
    at: call.now,
  });
  return { studio_campaign: studioCampaignView(linked, { status: step.status, error: step.error }), plan: await planView(tx, out.plan), step: stepView(step) };
}
