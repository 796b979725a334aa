// A Studio campaign's push under duplicated deliveries on real PostgreSQL: two services (each its own pool) run the
// same due push_batch step at once, with a lease so short that every consumer takes it over from the one before
// (the worst a duplicated QStash delivery, a sweep's job and a crashed runner can do together), and then its run
// itself concurrently from both. Every approved lead reaches the sequencer once and has one studio_campaign_leads row.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeStep, setStepLeaseMs, stepLeaseMs, stepRow } from '../../lib/plans/execute';
import { pushBatchStep } from '../../lib/plans/steps/push_batch';
import { poolLeads, simSequencerLeads, studioCampaignLeads, studioCampaigns } from '../../schema';
import { addBatch, approvePlan, setGate, start, studioTenant } from '../agency/studio_campaigns_helpers';
import { startTestEnv, TIER, type TestEnv } from '../helpers/harness';

let a: TestEnv;
let b: TestEnv;
beforeAll(async () => {
  a = await startTestEnv();
  b = TIER === 'integration' ? await startTestEnv() : a;
});
afterAll(async () => {
  if (b !== a) await b.close();
  await a.close();
});

describe(`one push under duplicated deliveries (${TIER})`, () => {
  it('pushes each of 600 leads once, whichever consumers run the step and its run', { timeout: 60_000 }, async () => {
    const s = await studioTenant(a, { mailboxes: 2 });
    const batch = await addBatch(a, s, 600, { rejected: 20 });
    await setGate(s, true);
    const started = await start(s, { batch_id: batch.batch.id });
    await approvePlan(s, started.plan.id);
    const due = (await stepRow(a.services.db, started.step.id)).dueAt!;
    for (const env of new Set([a, b])) {
      const ms = due.getTime() - env.clock.now().getTime();
      if (ms > 0) env.clock.advance(ms);
    }

    const lease = stepLeaseMs();
    setStepLeaseMs(1);
    let outcomes: string[];
    try {
      // Staggered a little, so later consumers find the step running with its lease already over and take it over
      // (three: the most attempts a step has before it counts as failed).
      outcomes = await Promise.all(
        [a, b, b].map(async (env, i) => {
          await new Promise((r) => setTimeout(r, i * 15));
          return executeStep(env.services, started.step.id);
        }),
      );
    } finally {
      setStepLeaseMs(lease);
    }
    expect(outcomes, JSON.stringify(await stepRow(a.services.db, started.step.id))).toContain('ran');
    const ran = await stepRow(a.services.db, started.step.id);
    expect(ran.status).toBe('done');
    // On one PGlite connection the consumers queue behind each other; on PostgreSQL they overlap and take over.
    if (TIER === 'integration') expect(ran.attempts, 'the later consumers took the running step over').toBeGreaterThan(1);

    // And the run itself, five more times at once from both services: nothing left to push, nothing doubled.
    const ctx = (env: TestEnv) => ({ services: env.services, orgId: s.t.org.id, clientId: s.t.client.id, stepId: started.step.id, planId: started.plan.id, now: env.clock.now(), actor: 'system' });
    const again = await Promise.all([a, b, a, b, a].map((env) => pushBatchStep.run(ctx(env), started.step.params)));
    expect(again.map((r) => r.pushed)).toEqual([580, 580, 580, 580, 580]);

    const rows = await a.services.db.select().from(studioCampaignLeads).where(eq(studioCampaignLeads.studioCampaignId, started.studio_campaign.id));
    expect(rows).toHaveLength(580);
    expect(new Set(rows.map((r) => r.poolLeadId)).size).toBe(580);
    const sim = await a.services.db.select().from(simSequencerLeads).where(eq(simSequencerLeads.orgId, s.t.org.id));
    expect(sim).toHaveLength(580);
    expect(new Set(sim.map((l) => l.email)).size).toBe(580);
    const [campaign] = await a.services.db.select().from(studioCampaigns).where(eq(studioCampaigns.id, started.studio_campaign.id));
    expect(campaign).toMatchObject({ status: 'pushed', pushed: 580, skippedNeverMail: 0 });
    const pool = await a.services.db.select().from(poolLeads).where(eq(poolLeads.clientId, s.t.client.id));
    expect(pool.filter((l) => l.status === 'pushed')).toHaveLength(580);
  });
});
