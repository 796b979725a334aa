// Studio campaigns (issue 18) on both faces: start_campaign's refusals and what it creates (nothing pushed), the
// push_batch step on its day only while the push gate is open (closed: it waits and runs once opened), never-mail
// entries added after approval held back, no lead pushed twice (repeated, concurrent and crashed runs), the
// simulated sequencer's day feeding replies into the core ingestion, campaign_results and campaign_analytics against
// the sim rows, and client_today. A database of its own in the integration tier: steps are run on the test clock.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSequencerTick } from '../../lib/campaigns_studio/sequencer_tick';
import { executeStep, stepRow } from '../../lib/plans/execute';
import { pushBatchStep } from '../../lib/plans/steps/push_batch';
import type { Sequencer } from '../../lib/ports/sequencer/port';
import { auditLog, batches, events, leads, mailboxes, planSteps, poolLeads, replies, simSequencerLeads, simSequencerSends, studioCampaignLeads, studioCampaigns, suppressions } from '../../schema';
import '../../functions/jobs/handlers';
import { createNodeServices } from '../../lib/runtime/node';
import { createNodeApp } from '../../scripts/node_server';
import { ADMIN_TOKEN, startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';
import { todayOf } from './infra_helpers';
import { addBatch, approvePlan, setGate, start, studioTenant, type StudioTenant } from './studio_campaigns_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({}, { ownDatabase: true });
});
afterAll(() => env.close());

const db = () => env.services.db;
const HOUR = 3_600_000;

const simLeadsOf = (orgId: string) => db().select().from(simSequencerLeads).where(eq(simSequencerLeads.orgId, orgId));
const rowsOf = (campaignId: string) => db().select().from(studioCampaignLeads).where(eq(studioCampaignLeads.studioCampaignId, campaignId));

/** Moves the test clock to the step's due time (never back). */
async function toDue(stepId: string) {
  const s = await stepRow(db(), stepId);
  const ms = s.dueAt!.getTime() - env.clock.now().getTime();
  if (ms > 0) env.clock.advance(ms);
}

/** start_campaign, the plan approved, the push step due now: what the push tests begin with. */
async function readyToPush(a: StudioTenant, n: number, opts: { gate?: boolean } = {}) {
  const b = await addBatch(env, a, n);
  if (opts.gate !== false) await setGate(a, true);
  const s = await start(a, { batch_id: b.batch.id });
  await approvePlan(a, s.plan.id);
  await toDue(s.step.id);
  return { ...b, ...s };
}

async function results(a: StudioTenant, id: string) {
  const r = await a.rest('GET', `${a.base}/studio-campaigns/${id}`);
  expect(r.status, r.text).toBe(200);
  return r.json.campaign;
}

describe('start_campaign', () => {
  it('refuses without an approved batch, without mailboxes, and for another organization or client (404)', async () => {
    const a = await studioTenant(env);
    const none = await a.rest('POST', `${a.base}/campaigns/start`, {});
    expect([none.status, none.json.error.code]).toEqual([409, 'conflict']);
    expect(none.json.error.message).toContain('no batch');

    const written = await addBatch(env, a, 3, { status: 'written' });
    const early = await a.rest('POST', `${a.base}/campaigns/start`, { batch_id: written.batch.id });
    expect([early.status, early.json.error.code]).toEqual([409, 'conflict']);
    expect(early.json.error.message).toContain('written');
    expect(early.json.batch).toEqual({ id: written.batch.id, status: 'written' });

    const bare = await studioTenant(env, { mailboxes: 0 });
    const b = await addBatch(env, bare, 3);
    const noMailbox = await bare.rest('POST', `${bare.base}/campaigns/start`, { batch_id: b.batch.id });
    expect([noMailbox.status, noMailbox.json.error.code]).toEqual([409, 'conflict']);
    expect(noMailbox.json.error.message).toContain('no mailbox');

    // Another organization's client and batch, and a batch of another client of the same organization: not found.
    const other = await studioTenant(env);
    const theirs = await addBatch(env, other, 2);
    const foreign = await a.rest('POST', `/v1/agency/clients/${other.t.client.id}/campaigns/start`, {});
    expect([foreign.status, foreign.json.error.code]).toEqual([404, 'not_found']);
    const foreignBatch = await a.rest('POST', `${a.base}/campaigns/start`, { batch_id: theirs.batch.id });
    expect([foreignBatch.status, foreignBatch.json.error.code]).toEqual([404, 'not_found']);
    const sibling = await a.t.addClient('Sibling');
    const siblingBatch = await addBatch(env, a, 2, { clientId: sibling.id });
    const viaTool = await a.tool('start_campaign', { client_id: a.t.client.id, batch_id: siblingBatch.batch.id });
    expect(viaTool.isError).toBe(true);
    expect(viaTool.text).toMatch(/^not_found:/);
    expect(await db().select().from(studioCampaigns).where(eq(studioCampaigns.orgId, a.t.org.id))).toHaveLength(0);
  });

  it('creates the campaign, its core campaign and a push step in the plan, pushes nothing, and one campaign per batch', async () => {
    const a = await studioTenant(env);
    const b = await addBatch(env, a, 5);
    const s = await start(a, { batch_id: b.batch.id, name: 'Spring push', day: 2 });
    expect(s.studio_campaign).toMatchObject({ batch_id: b.batch.id, name: 'Spring push', status: 'proposed', sequencer: 'sim', pushed: 0, plan_step_id: s.step.id, created_by: 'key:assistant' });
    expect(s.step).toMatchObject({ kind: 'push_batch', day: 2, status: 'waiting', buys: false, undoable: false });
    expect(s.plan).toMatchObject({ status: 'waiting_approval' });
    // The client's sending mailboxes send for the new core campaign too, so the plan's dry run passes.
    expect(s.plan.dry_run).toMatchObject({ ok: true });
    expect(await simLeadsOf(a.t.org.id)).toHaveLength(0);
    expect((await db().select().from(batches).where(eq(batches.id, b.batch.id)))[0].status).toBe('approved');

    const again = await a.rest('POST', `${a.base}/campaigns/start`, { batch_id: b.batch.id });
    expect([again.status, again.json.error.code]).toEqual([409, 'conflict']);
    expect(again.json.studio_campaign.id).toBe(s.studio_campaign.id);

    // The tool answers what the route answers.
    const viaRoute = await results(a, s.studio_campaign.id);
    const viaTool = await a.tool('campaign_results', { client_id: a.t.client.id, campaign_id: s.studio_campaign.id });
    expect(viaTool.isError, viaTool.text).toBe(false);
    expect(viaTool.json.campaign).toEqual(viaRoute);
    expect(viaRoute).toMatchObject({ status: 'proposed', sent: 0, replied: 0, by_step: [], simulated: true });

    // A push step that failed (or left the plan) is proposed again for the same campaign; one that waits is not.
    await db().update(planSteps).set({ status: 'failed', error: 'the sequencer was down' }).where(eq(planSteps.id, s.step.id));
    expect(await results(a, s.studio_campaign.id)).toMatchObject({ status: 'failed', last_error: 'the sequencer was down' });
    const retried = await start(a, { batch_id: b.batch.id });
    expect(retried.studio_campaign).toMatchObject({ id: s.studio_campaign.id, status: 'proposed' });
    expect(retried.step.id).not.toBe(s.step.id);
    expect(retried.studio_campaign.plan_step_id).toBe(retried.step.id);
    expect((await a.rest('POST', `${a.base}/campaigns/start`, { batch_id: b.batch.id })).status).toBe(409);
  });

  it('lets the dry run fail until ready mailboxes are attached to the new campaign', async () => {
    const a = await studioTenant(env, { mailboxes: 0 });
    const d = await (await import('./infra_helpers')).addDomain(env, a.t.org.id, a.t.client.id);
    const [reserve] = await (await import('./infra_helpers')).addMailboxes(env, d, 1, { status: 'reserve' });
    const b = await addBatch(env, a, 2);
    const s = await start(a, { batch_id: b.batch.id });
    expect(s.plan.dry_run.ok).toBe(false);
    expect(s.plan.dry_run.problems.join(' ')).toContain(`attach_mailboxes with campaign_ids [${s.studio_campaign.campaign_id}]`);
    const attach = await a.rest('POST', `${a.base}/mailboxes/attach`, { mailbox_ids: [reserve.id], campaign_ids: [s.studio_campaign.campaign_id] });
    expect(attach.status, attach.text).toBe(200);
    const plan = await approvePlan(a, s.plan.id);
    expect(plan.status).toBe('approved');
  });
});

describe('the push_batch step', () => {
  it('runs on its day only, waits while the push gate is closed and pushes once it is opened', async () => {
    const a = await studioTenant(env);
    const b = await addBatch(env, a, 12, { rejected: 2 });
    const s = await start(a, { batch_id: b.batch.id, day: 1 });
    await approvePlan(a, s.plan.id);
    expect(await executeStep(env.services, s.step.id)).toBe('skipped'); // not its day yet
    await toDue(s.step.id);

    expect(await executeStep(env.services, s.step.id)).toBe('deferred');
    const waiting = await stepRow(db(), s.step.id);
    expect(waiting).toMatchObject({ status: 'scheduled', attempts: 0 });
    expect(waiting.error).toMatch(/^push_gate_closed/);
    expect(await results(a, s.studio_campaign.id)).toMatchObject({ status: 'waiting_gate', pushed: 0 });
    expect(await simLeadsOf(a.t.org.id)).toHaveLength(0);
    // Still closed an hour later: it waits again, with no attempt counted.
    env.clock.advance(HOUR);
    expect(await executeStep(env.services, s.step.id)).toBe('deferred');
    expect((await stepRow(db(), s.step.id)).attempts).toBe(0);

    await setGate(a, true);
    env.clock.advance(HOUR);
    expect(await executeStep(env.services, s.step.id)).toBe('ran');
    const done = await results(a, s.studio_campaign.id);
    expect(done).toMatchObject({ status: 'pushed', pushed: 10, skipped_never_mail: 0, last_error: null });
    const sim = await simLeadsOf(a.t.org.id);
    expect(sim.map((l) => l.email).sort()).toEqual(b.leads.slice(2).map((l) => l.email).sort());
    expect(sim[0].mails).toHaveLength(2);
    expect((await db().select().from(batches).where(eq(batches.id, b.batch.id)))[0].status).toBe('pushed');
    const pool = await db().select().from(poolLeads).where(eq(poolLeads.clientId, a.t.client.id));
    expect(pool.filter((l) => l.status === 'pushed')).toHaveLength(10);
    expect((await a.getPlan(s.plan.id)).status).toBe('done');
  });

  it('holds back leads put on the never-mail list between approval and push', async () => {
    const a = await studioTenant(env);
    const p = await readyToPush(a, 10);
    await db().insert(suppressions).values([
      { orgId: a.t.org.id, clientId: a.t.client.id, kind: 'email', value: p.leads[0].email!, reason: 'manual', createdBy: 'test' },
      { orgId: a.t.org.id, clientId: a.t.client.id, kind: 'domain', value: p.leads[5].domain!, reason: 'manual', createdBy: 'test' },
    ]);
    expect(await executeStep(env.services, p.step.id)).toBe('ran');
    expect(await results(a, p.studio_campaign.id)).toMatchObject({ status: 'pushed', pushed: 8, skipped_never_mail: 2 });
    const held = (await rowsOf(p.studio_campaign.id)).filter((r) => r.outcome === 'never_mail').map((r) => r.poolLeadId).sort();
    expect(held).toEqual([p.leads[0].id, p.leads[5].id].sort());
    const sim = (await simLeadsOf(a.t.org.id)).map((l) => l.email);
    expect(sim).toHaveLength(8);
    expect(sim).not.toContain(p.leads[0].email);
    expect(sim).not.toContain(p.leads[5].email);
  });

  it('never pushes a lead twice: repeated and concurrent runs, and a run that crashed midway', async () => {
    const a = await studioTenant(env);
    const p = await readyToPush(a, 450);
    const ctx = { services: env.services, orgId: a.t.org.id, clientId: a.t.client.id, stepId: p.step.id, planId: p.plan.id, now: env.clock.now(), actor: 'system' };
    const params = p.step.params;
    // The sequencer fails on its third call (in the second chunk): that chunk rolls back with its sim rows.
    const real = env.services.studio.sequencer;
    let calls = 0;
    const failing: Sequencer = {
      kind: real.kind,
      ensureCampaign: (d, i) => real.ensureCampaign(d, i),
      activateCampaign: (d, i) => real.activateCampaign(d, i),
      addLeads: async (d, i) => {
        if (++calls === 3) throw new Error('connection reset');
        return real.addLeads(d, i);
      },
    };
    env.services.studio.sequencer = failing;
    try {
      await expect(pushBatchStep.run(ctx, params)).rejects.toThrow('connection reset');
    } finally {
      env.services.studio.sequencer = real;
    }
    expect(await rowsOf(p.studio_campaign.id)).toHaveLength(200);
    expect(await simLeadsOf(a.t.org.id)).toHaveLength(200);

    // What reaches the sequencer from here on: the 250 left, each once (the sim's own dedup would hide a second try).
    let sent = 0;
    let already = 0;
    let activations = 0;
    env.services.studio.sequencer = {
      kind: real.kind,
      ensureCampaign: (d, i) => real.ensureCampaign(d, i),
      activateCampaign: (d, i) => {
        activations++;
        return real.activateCampaign(d, i);
      },
      addLeads: async (d, i) => {
        sent += i.leads.length;
        const r = await real.addLeads(d, i);
        if (r.ok) already += r.already;
        return r;
      },
    };
    try {
      const runs = await Promise.all([1, 2, 3].map(() => pushBatchStep.run(ctx, params)));
      expect(runs.map((r) => r.pushed)).toEqual([450, 450, 450]);
      expect(await pushBatchStep.run(ctx, params)).toMatchObject({ pushed: 450 });
    } finally {
      env.services.studio.sequencer = real;
    }
    expect({ sent, already }).toEqual({ sent: 250, already: 0 });
    // Every finishing run starts the campaign's sending (idempotent at the sequencer).
    expect(activations).toBeGreaterThanOrEqual(1);
    const rows = await rowsOf(p.studio_campaign.id);
    expect(rows).toHaveLength(450);
    expect(new Set(rows.map((r) => r.poolLeadId)).size).toBe(450);
    const sim = await simLeadsOf(a.t.org.id);
    expect(sim).toHaveLength(450);
    expect(new Set(sim.map((l) => l.email)).size).toBe(450);
    const audit = await db().select().from(auditLog).where(and(eq(auditLog.orgId, a.t.org.id), eq(auditLog.action, 'studio_campaign.pushed')));
    expect(audit).toHaveLength(1);
  });
});

describe('the push and its batch', () => {
  it('stops before the next chunk when the gate closes mid-push, and resumes once it opens', async () => {
    const a = await studioTenant(env);
    const p = await readyToPush(a, 450);
    const ctx = { services: env.services, orgId: a.t.org.id, clientId: a.t.client.id, stepId: p.step.id, planId: p.plan.id, now: env.clock.now(), actor: 'system' };
    const real = env.services.studio.sequencer;
    let closed = false;
    env.services.studio.sequencer = {
      kind: real.kind,
      ensureCampaign: (d, i) => real.ensureCampaign(d, i),
      activateCampaign: (d, i) => real.activateCampaign(d, i),
      addLeads: async (d, i) => {
        const r = await real.addLeads(d, i);
        // A person closes the gate while the first chunk is being pushed (their write waits for the chunk's commit).
        if (!closed) {
          closed = true;
          void setGate(a, false);
        }
        return r;
      },
    };
    try {
      await expect(pushBatchStep.run(ctx, p.step.params)).rejects.toThrow(/push_gate_closed/);
    } finally {
      env.services.studio.sequencer = real;
    }
    expect(await rowsOf(p.studio_campaign.id)).toHaveLength(200);
    expect((await results(a, p.studio_campaign.id)).status).toBe('waiting_gate');
    await setGate(a, true);
    expect(await pushBatchStep.run(ctx, p.step.params)).toMatchObject({ pushed: 450 });
  });

  it("refuses a push step naming a batch that is not its campaign's (another client's or another of this client's)", async () => {
    const a = await studioTenant(env);
    const p = await readyToPush(a, 3);
    const other = await a.t.addClient('Client Other');
    const foreign = await addBatch(env, a, 3, { clientId: other.id });
    const ctx = { services: env.services, orgId: a.t.org.id, clientId: a.t.client.id, stepId: p.step.id, planId: p.plan.id, now: env.clock.now(), actor: 'system' };
    const forged = { ...p.step.params, batch_id: foreign.batch.id };
    expect(await pushBatchStep.dryRun(ctx, forged)).toEqual([expect.stringContaining('is not Studio campaign')]);
    await expect(pushBatchStep.run(ctx, forged)).rejects.toThrow(/is not Studio campaign/);
    expect(await db().select().from(studioCampaignLeads).where(eq(studioCampaignLeads.orgId, a.t.org.id))).toHaveLength(0);
  });

  it('keeps skip_batch from giving up a batch whose push step still waits in the plan', async () => {
    const a = await studioTenant(env);
    const b = await addBatch(env, a, 3);
    const s = await start(a, { batch_id: b.batch.id });
    const blocked = await a.rest('POST', `${a.base}/batch/skip`, {});
    expect(blocked.status, blocked.text).toBe(200);
    expect(blocked.json).toMatchObject({ confirm_token: null, blocked_by: 'conflict' });
    const [batch] = await db().select().from(batches).where(eq(batches.id, b.batch.id));
    expect(batch.status).toBe('approved');
    expect(s.step.status).toBe('waiting');
  });
});

describe('the simulated sequencer day', () => {
  it('sends within the caps, feeds replies into the core ingestion once, and results and analytics match the rows', async () => {
    const a = await studioTenant(env, { mailboxes: 3, cap: 100 });
    const p = await readyToPush(a, 260);
    expect(await executeStep(env.services, p.step.id)).toBe('ran');
    const today = todayOf(env);
    const first = await runSequencerTick(env.services, new Date(`${today}T10:00:00Z`), { orgIds: [a.t.org.id] });
    expect(first).toMatchObject({ days: 1, sent: expect.any(Number) });
    expect(first.sent + first.bounced + first.replied).toBe(260);
    // The same day again sends nothing and ingests nothing new.
    expect(await runSequencerTick(env.services, new Date(`${today}T11:00:00Z`), { orgIds: [a.t.org.id] })).toMatchObject({ days: 0, sent: 0, ingested: 0 });

    const sends = await db().select().from(simSequencerSends).where(eq(simSequencerSends.orgId, a.t.org.id));
    expect(sends).toHaveLength(260);
    const perMailbox = new Map<string, number>();
    for (const s of sends) perMailbox.set(s.mailbox, (perMailbox.get(s.mailbox) ?? 0) + 1);
    expect(Math.max(...perMailbox.values())).toBeLessThanOrEqual(100);
    const repliedSends = sends.filter((s) => s.outcome === 'replied');
    expect(repliedSends.length).toBeGreaterThan(0);
    expect(first.ingested).toBe(repliedSends.length);

    const coreId = p.studio_campaign.campaign_id;
    const core = await db().select().from(replies).where(eq(replies.campaignId, coreId));
    expect(core.map((r) => r.fromEmail).sort()).toEqual(repliedSends.map((s) => s.leadEmail).sort());
    const coreLeads = await db().select().from(leads).where(eq(leads.campaignId, coreId));
    expect(coreLeads).toHaveLength(repliedSends.length);
    const replied = (await db().select().from(events).where(eq(events.orgId, a.t.org.id))).filter((e) => e.kind === 'lead.replied');
    expect(replied).toHaveLength(repliedSends.length);

    const r = await results(a, p.studio_campaign.id);
    const bounced = sends.filter((s) => s.outcome === 'bounced').length;
    const positive = coreLeads.filter((l) => l.classification === 'hot' || l.classification === 'warm').length;
    expect(r).toMatchObject({ pushed: 260, prospects_contacted: 260, sent: 260, bounced, replied: repliedSends.length, positive });
    expect(r.by_step).toEqual([{ step: 1, sent: 260, bounced, replied: repliedSends.length }]);

    const h = await a.rest('GET', `${a.base}/campaign-health`);
    expect(h.status, h.text).toBe(200);
    const [c200, c500, c1000] = h.json.health.checkpoints;
    expect(h.json.health.prospects_contacted).toBe(260);
    const ordered = [...sends].sort((x, y) => x.day.localeCompare(y.day) || x.at.getTime() - y.at.getTime() || x.id.localeCompare(y.id)).slice(0, 200);
    const round = (x: number) => Math.round(x * 10_000) / 10_000;
    const positiveEmails = new Set(coreLeads.filter((l) => l.classification === 'hot' || l.classification === 'warm').map((l) => l.email));
    expect(c200).toMatchObject({
      prospects: 200,
      reached: true,
      bounce_rate: round(ordered.filter((s) => s.outcome === 'bounced').length / 200),
      reply_rate: round(ordered.filter((s) => s.outcome === 'replied').length / 200),
      positive_rate: round(ordered.filter((s) => positiveEmails.has(s.leadEmail)).length / 200),
      verdict: expect.stringMatching(/^(healthy|watch|stop)$/),
    });
    expect(c500).toMatchObject({ prospects: 500, reached: false, verdict: null });
    expect(c1000.reached).toBe(false);

    // The next day sends the second mails three days later only; nothing is due tomorrow.
    const tomorrow = await runSequencerTick(env.services, new Date(Date.parse(`${today}T10:00:00Z`) + 24 * HOUR), { orgIds: [a.t.org.id] });
    expect(tomorrow).toMatchObject({ days: 1, sent: 0 });
  });
});

describe('client_today', () => {
  it('says what waits for whom, what runs today and what is off track', async () => {
    const a = await studioTenant(env);
    const b = await addBatch(env, a, 4);
    const first = await a.rest('GET', `${a.base}/today`);
    expect(first.status, first.text).toBe(200);
    expect(first.json.today).toMatchObject({ client_id: a.t.client.id, timezone: 'UTC', push_gate_open: false });
    expect(first.json.today.waiting).toContainEqual({ who: 'assistant', what: 'Batch is approved: start its campaign.', tool: 'start_campaign', id: b.batch.id });

    const s = await start(a, { batch_id: b.batch.id });
    const proposed = (await a.rest('GET', `${a.base}/today`)).json.today;
    expect(proposed.waiting.find((w: any) => w.tool === 'approve_plan')).toMatchObject({ who: 'person', id: s.plan.id });
    expect(proposed.waiting.some((w: any) => w.tool === 'start_campaign')).toBe(false);

    await approvePlan(a, s.plan.id);
    await toDue(s.step.id);
    await executeStep(env.services, s.step.id); // deferred: the gate is closed
    await db().update(mailboxes).set({ status: 'parked', parkReason: 'bounce_rate' }).where(eq(mailboxes.id, a.mailboxes[0].id));
    const viaTool = await a.tool('client_today', { client_id: a.t.client.id });
    expect(viaTool.isError, viaTool.text).toBe(false);
    const today = viaTool.json.today;
    expect(today.runs_today.find((r: any) => r.id === s.step.id)?.what).toContain('Push the approved batch');
    expect(today.off_track).toContainEqual(expect.objectContaining({ who: 'person', id: s.step.id, what: expect.stringContaining('push gate') }));
    expect(today.off_track).toContainEqual(expect.objectContaining({ tool: 'get_mailbox_lifecycle', id: a.mailboxes[0].id }));
    expect(today.sends_today).toEqual({ sent: 0, bounced: 0, replied: 0 });

    const stranger = await newTenant(env, { features: { agency_tools: true, studio: true } });
    const r = await a.rest('GET', `/v1/agency/clients/${stranger.client.id}/today`);
    expect([r.status, r.json.error.code]).toEqual([404, 'not_found']);
    const health = await a.rest('GET', `/v1/agency/clients/${stranger.client.id}/campaign-health`);
    expect(health.status).toBe(404);
    const res = await a.rest('GET', `/v1/agency/clients/${a.t.client.id}/studio-campaigns/${a.t.campaign.id}`);
    expect([res.status, res.json.error.code]).toEqual([404, 'not_found']);
  });
});

describe('on simulated time (CLOCK=sim)', () => {
  let wall: TestEnv;
  let simEnv: TestEnv;
  beforeAll(async () => {
    wall = await startTestEnv({ CLOCK: 'sim' }, { ownDatabase: true });
    const services = await createNodeServices(wall.config, { database: wall.services.database });
    simEnv = { ...wall, services, app: createNodeApp(services) };
  }, 120_000);
  afterAll(() => wall?.close());

  async function advance(a: StudioTenant, seconds: number) {
    const r = await a.t.admin('POST', '/admin/v1/sim/clock', { advance_seconds: seconds });
    expect(r.status, r.text).toBe(200);
  }

  it('the push waits for the gate, runs once it opens, and the daily tick mails and ingests replies', { timeout: 60_000 }, async () => {
    const a = await studioTenant(simEnv, { mailboxes: 3, cap: 40 });
    const b = await addBatch(simEnv, a, 200);
    const s = await start(a, { batch_id: b.batch.id });
    await approvePlan(a, s.plan.id);
    await advance(a, 6 * 3600);
    const sdb = simEnv.services.db;
    const [waiting] = await sdb.select().from(studioCampaigns).where(eq(studioCampaigns.id, s.studio_campaign.id));
    expect(waiting.status).toBe('waiting_gate');
    expect((await sdb.select().from(planSteps).where(eq(planSteps.id, s.step.id)))[0]).toMatchObject({ status: 'scheduled', attempts: 0 });
    expect(await sdb.select().from(simSequencerLeads).where(eq(simSequencerLeads.orgId, a.t.org.id))).toHaveLength(0);

    await setGate(a, true);
    await advance(a, 3600);
    expect((await sdb.select().from(studioCampaigns).where(eq(studioCampaigns.id, s.studio_campaign.id)))[0]).toMatchObject({ status: 'pushed', pushed: 200 });

    // The mailbox day (local midnight) sets each cap to the rule's 30: 90 first mails a day, all 200 by the third.
    await advance(a, 3 * 86_400);
    const sends = await sdb.select().from(simSequencerSends).where(eq(simSequencerSends.orgId, a.t.org.id));
    expect(sends.filter((x) => x.step === 1)).toHaveLength(200);
    const repliedSends = sends.filter((x) => x.outcome === 'replied');
    expect(repliedSends.length).toBeGreaterThan(0);
    const core = await sdb.select().from(replies).where(and(eq(replies.orgId, a.t.org.id), eq(replies.campaignId, s.studio_campaign.campaign_id)));
    expect(core).toHaveLength(repliedSends.length);
    const today = await a.rest('GET', `${a.base}/today`);
    expect(today.status, today.text).toBe(200);
    void ADMIN_TOKEN;
    void sql;
  });
});
