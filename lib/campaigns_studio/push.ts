// The push of an approved batch (the push_batch step's run). Exactly once per lead, also across crashes and
// duplicated deliveries: each chunk is one transaction that first locks the Studio campaign row (a second runner
// waits here, then finds the chunk done), reads the next approved leads that have no studio_campaign_leads row yet,
// checks the never-mail list right before pushing, adds the rest to the sequencer and writes their rows. The sim
// sequencer writes through the same transaction, so its rows commit with ours; Instantly is called inside it, and
// a rollback after that call is repaired by its own dedup (skip_if_in_campaign: `already`) on the resumed chunk.
// The primary key (campaign, lead) and the unique pushed index make a second push of a lead impossible anyway: the
// insert is plain, so a conflict there rolls the whole chunk back (the sim's rows with it) instead of passing quietly.
// The gate is read again under each chunk's lock: closing it stops a running push before its next chunk.
import { and, eq, sql } from 'drizzle-orm';
import { batches, campaigns, organizations, poolLeads, studioCampaignLeads, studioCampaigns, type WrittenMail } from '../../schema';
import { writeAudit } from '../agency/audit';
import { rows, type Db } from '../db/types';
import { findNeverMail } from '../pool/never_mail';
import type { SequencerLead } from '../ports/sequencer/port';
import { MAX_LEADS_PER_CALL } from '../ports/sequencer/sim';
import type { StepContext } from '../plans/step_kind';
import { StepDeferred } from '../plans/step_kind';
import { sendingMailboxes } from './mailboxes';

/** Leads per transaction: 1,000 leads are five commits, and a crash loses at most one chunk's work (redone). */
export const PUSH_CHUNK = 200;
/** While the push gate is closed the step looks again this much later. */
export const PUSH_GATE_RETRY_MS = 60 * 60_000;
export const PUSH_GATE_CLOSED = 'push_gate_closed';

export type PushParams = { studio_campaign_id: string; batch_id: string; name: string };
export type PushResult = { studio_campaign_id: string; provider_campaign_id: string; pushed: number; skipped_never_mail: number; simulated?: true };

type ChunkLead = {
  pool_lead_id: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  domain: string | null;
  website: string | null;
  mails: WrittenMail[] | null;
};

async function loadCampaign(db: Db, ctx: StepContext, id: string) {
  const [row] = await db.select().from(studioCampaigns).where(and(eq(studioCampaigns.id, id), eq(studioCampaigns.orgId, ctx.orgId), eq(studioCampaigns.clientId, ctx.clientId)));
  if (!row) throw new Error(`Studio campaign ${id} is gone`);
  return row;
}

const mailsOf = (mails: WrittenMail[]) => mails.map((m) => ({ step: m.step, subject: m.subject, body: m.body, delay_days: m.delay_days }));

export async function pushBatch(ctx: StepContext, p: PushParams): Promise<PushResult> {
  const { services } = ctx;
  const db = services.db;
  const sequencer = services.studio.sequencer;
  let campaign = await loadCampaign(db, ctx, p.studio_campaign_id);
  if (campaign.status === 'pushed') return resultOf(campaign, sequencer.kind);

  if (campaign.batchId !== p.batch_id) throw new Error(`batch ${p.batch_id} is not Studio campaign ${campaign.id}'s batch: nothing is pushed`);
  const [org] = await db.select({ open: organizations.pushGateOpen }).from(organizations).where(eq(organizations.id, ctx.orgId));
  if (!org?.open) await waitForGate(ctx, campaign.id);

  // Started: the batch and the campaign say so before the first lead leaves (a resumed push finds them so already).
  await db.transaction(async (tx) => {
    const [batch] = await tx
      .select({ status: batches.status })
      .from(batches)
      .where(and(eq(batches.id, p.batch_id), eq(batches.orgId, ctx.orgId), eq(batches.clientId, ctx.clientId)))
      .for('update');
    if (!batch) throw new Error(`batch ${p.batch_id} is gone`);
    if (batch.status !== 'approved' && batch.status !== 'pushing') throw new Error(`batch ${p.batch_id} is ${batch.status}, not approved: nothing is pushed`);
    if (batch.status === 'approved') await tx.update(batches).set({ status: 'pushing', updatedAt: ctx.now }).where(eq(batches.id, p.batch_id));
    // Conditional, so of two runners only the first writes the audit row.
    const [moved] = await tx
      .update(studioCampaigns)
      .set({ status: 'pushing', lastError: null, updatedAt: ctx.now })
      .where(and(eq(studioCampaigns.id, campaign.id), sql`${studioCampaigns.status} not in ('pushing', 'pushed')`))
      .returning({ id: studioCampaigns.id });
    if (moved) await writeAudit(tx, { orgId: ctx.orgId, actor: ctx.actor, action: 'studio_campaign.pushing', target: `studio_campaign:${campaign.id}`, detail: { plan_step_id: ctx.stepId, batch_id: p.batch_id }, at: ctx.now });
  });

  // The sequencer campaign, idempotent by the Studio campaign id; its mailboxes are the ones sending for the core campaign.
  const mailboxes = campaign.campaignId ? await sendingMailboxes(db, ctx.orgId, campaign.campaignId) : [];
  const ensured = await sequencer.ensureCampaign({ db }, { orgId: ctx.orgId, reference: campaign.id, name: campaign.name, mailboxes });
  if (!ensured.ok) throw new Error(`the sequencer refused the campaign (${ensured.reason}): ${ensured.detail}`);
  const providerCampaignId = ensured.provider_campaign_id;
  await db.transaction(async (tx) => {
    await tx.update(studioCampaigns).set({ providerCampaignId, mailboxes, updatedAt: ctx.now }).where(eq(studioCampaigns.id, campaign.id));
    // A production sequencer's replies arrive by its webhook, matched to the core campaign by (provider, id).
    if (sequencer.kind !== 'sim' && campaign.campaignId) {
      await tx.update(campaigns).set({ provider: sequencer.kind, providerCampaignId }).where(and(eq(campaigns.id, campaign.campaignId), eq(campaigns.orgId, ctx.orgId)));
    }
  });

  for (;;) {
    const done = await db.transaction((tx) => pushChunk(tx, ctx, campaign.id, p.batch_id, providerCampaignId));
    if (done === 0) break;
    if (done === GATE_CLOSED) await waitForGate(ctx, campaign.id);
  }

  // Sending starts once every lead is in (a production campaign is created as a draft); repeating it is harmless.
  const activated = await sequencer.activateCampaign({ db }, { orgId: ctx.orgId, provider_campaign_id: providerCampaignId });
  if (!activated.ok) throw new Error(`the sequencer did not start the campaign (${activated.reason}): ${activated.detail}`);

  campaign = await db.transaction(async (tx) => {
    const [counts] = await rows<{ pushed: number; never_mail: number }>(
      tx,
      sql`select count(*) filter (where outcome = 'pushed')::int as pushed, count(*) filter (where outcome = 'never_mail')::int as never_mail
          from studio_campaign_leads where studio_campaign_id = ${campaign.id}::uuid`,
    );
    const pushed = Number(counts.pushed);
    const skipped = Number(counts.never_mail);
    await tx.update(batches).set({ status: 'pushed', updatedAt: ctx.now }).where(and(eq(batches.id, p.batch_id), eq(batches.status, 'pushing')));
    const [row] = await tx
      .update(studioCampaigns)
      .set({ status: 'pushed', pushed, skippedNeverMail: skipped, pushedAt: ctx.now, lastError: null, updatedAt: ctx.now })
      .where(and(eq(studioCampaigns.id, campaign.id), sql`${studioCampaigns.status} <> 'pushed'`))
      .returning();
    // A second runner finishing the same push finds it done: one audit row, the first runner's figures.
    if (!row) return loadCampaign(tx, ctx, campaign.id);
    await writeAudit(tx, {
      orgId: ctx.orgId,
      actor: ctx.actor,
      action: 'studio_campaign.pushed',
      target: `studio_campaign:${campaign.id}`,
      detail: { plan_step_id: ctx.stepId, batch_id: p.batch_id, provider_campaign_id: providerCampaignId, pushed, skipped_never_mail: skipped },
      at: ctx.now,
    });
    return row;
  });
  return resultOf(campaign, sequencer.kind);
}

/** Marks the campaign as waiting for the gate (one audit row per wait) and defers the step by an hour. */
async function waitForGate(ctx: StepContext, campaignId: string): Promise<never> {
  const reason = `${PUSH_GATE_CLOSED}: the organization's push gate is closed; the push waits and runs once it is opened`;
  await ctx.services.db.transaction(async (tx) => {
    const [moved] = await tx
      .update(studioCampaigns)
      .set({ status: 'waiting_gate', lastError: reason, updatedAt: ctx.now })
      .where(and(eq(studioCampaigns.id, campaignId), sql`${studioCampaigns.status} <> 'waiting_gate'`))
      .returning({ id: studioCampaigns.id });
    if (moved) await writeAudit(tx, { orgId: ctx.orgId, actor: ctx.actor, action: 'studio_campaign.waiting_gate', target: `studio_campaign:${campaignId}`, detail: { plan_step_id: ctx.stepId }, at: ctx.now });
  });
  throw new StepDeferred(reason, new Date(ctx.now.getTime() + PUSH_GATE_RETRY_MS));
}

const GATE_CLOSED = -1;

const resultOf = (c: typeof studioCampaigns.$inferSelect, kind: string): PushResult => ({
  studio_campaign_id: c.id,
  provider_campaign_id: c.providerCampaignId ?? '',
  pushed: c.pushed,
  skipped_never_mail: c.skippedNeverMail,
  ...(kind === 'sim' && { simulated: true as const }),
});

/** One chunk in the caller's transaction; the number of leads it settled (0: nothing left; GATE_CLOSED: stop). */
async function pushChunk(tx: Db, ctx: StepContext, campaignId: string, batchId: string, providerCampaignId: string): Promise<number> {
  await tx.execute(sql`select id from studio_campaigns where id = ${campaignId}::uuid for update`);
  const [gate] = await rows<{ open: boolean }>(tx, sql`select push_gate_open as open from organizations where id = ${ctx.orgId}::uuid for share`);
  if (!gate?.open) return GATE_CLOSED;
  const chunk = await rows<ChunkLead>(
    tx,
    sql`select bl.pool_lead_id, p.email, p.first_name, p.last_name, p.company, p.domain, p.website, bl.mails
        from batch_leads bl join pool_leads p on p.id = bl.pool_lead_id and p.org_id = ${ctx.orgId}::uuid
        where bl.batch_id = ${batchId}::uuid and bl.org_id = ${ctx.orgId}::uuid and bl.client_id = ${ctx.clientId}::uuid and bl.review = 'approved'
          and not exists (select 1 from studio_campaign_leads s where s.studio_campaign_id = ${campaignId}::uuid and s.pool_lead_id = bl.pool_lead_id)
          -- never expected (a lead is in one open batch), but a lead another campaign pushed is never pushed again
          and not exists (select 1 from studio_campaign_leads s where s.pool_lead_id = bl.pool_lead_id and s.outcome = 'pushed')
        order by bl.position, bl.pool_lead_id
        limit ${PUSH_CHUNK}`,
  );
  if (chunk.length === 0) return 0;
  const blocked = await findNeverMail(tx, { orgId: ctx.orgId, clientId: ctx.clientId, leads: chunk });
  const toPush = chunk.filter((c, i) => !blocked.has(i) && c.email && c.mails?.length);
  const neverMail = chunk.filter((c, i) => blocked.has(i) || !c.email || !c.mails?.length);
  const leads: SequencerLead[] = toPush.map((c) => ({ email: c.email!, first_name: c.first_name, last_name: c.last_name, company: c.company, mails: mailsOf(c.mails!) }));
  for (let i = 0; i < leads.length; i += MAX_LEADS_PER_CALL) {
    const added = await ctx.services.studio.sequencer.addLeads({ db: tx }, { orgId: ctx.orgId, provider_campaign_id: providerCampaignId, leads: leads.slice(i, i + MAX_LEADS_PER_CALL) });
    if (!added.ok) throw new Error(`the sequencer refused leads (${added.reason}): ${added.detail}`);
  }
  const values = [
    ...toPush.map((c) => ({ studioCampaignId: campaignId, poolLeadId: c.pool_lead_id, orgId: ctx.orgId, email: c.email!, outcome: 'pushed' as const, at: ctx.now })),
    ...neverMail.map((c) => ({ studioCampaignId: campaignId, poolLeadId: c.pool_lead_id, orgId: ctx.orgId, email: c.email ?? '', outcome: 'never_mail' as const, at: ctx.now })),
  ];
  if (values.length) await tx.insert(studioCampaignLeads).values(values);
  if (toPush.length) {
    await tx
      .update(poolLeads)
      .set({ status: 'pushed', updatedAt: ctx.now })
      .where(and(eq(poolLeads.orgId, ctx.orgId), sql`${poolLeads.id} = any(${sql.param(toPush.map((c) => c.pool_lead_id))}::uuid[])`));
  }
  // Held back by the never-mail list: back in the pool as new, where that list keeps them out of every batch.
  const heldBack = neverMail.map((c) => c.pool_lead_id);
  if (heldBack.length) {
    await tx.update(poolLeads).set({ status: 'new', updatedAt: ctx.now }).where(and(eq(poolLeads.orgId, ctx.orgId), sql`${poolLeads.id} = any(${sql.param(heldBack)}::uuid[])`, eq(poolLeads.status, 'in_batch')));
  }
  return chunk.length;
}
