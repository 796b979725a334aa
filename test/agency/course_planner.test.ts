// The daily catch-up planner: an agreement off track gets a reminder (and, for new prospects with leads waiting for
// an email, a find_emails step) in its client's open plan, proposed by `system` and waiting for approval; the same
// day proposes nothing new, nor does a later day while the earlier catch-up still waits; on track and at risk
// agreements, other organizations and organizations without the Studio get nothing. The tick picks each
// organization in its own morning.
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courseTick } from '../../lib/course/tick';
import { planCatchUp } from '../../lib/course/planner';
import { plans, planSteps } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { addPoolLeads, auditOf, studioTenant, type StudioTenant } from './pool_reads_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const setNow = (iso: string) => env.clock.advance(Date.parse(iso) - env.clock.now().getTime());
const stepsOf = (clientId: string) => env.services.db.select().from(planSteps).where(eq(planSteps.clientId, clientId)).orderBy(asc(planSteps.position));

/** A client 2 prospects a workday behind: Mon 2 March to Thu 5 March completed, 2 added (8 expected). */
async function behind(a: StudioTenant, clientId = a.t.client.id) {
  const r = await a.rest('POST', `/v1/agency/clients/${clientId}/agreements`, { kind: 'new_prospects_per_workday', target: 2, start: '2026-03-02' });
  expect(r.status, r.text).toBe(201);
  await addPoolLeads(env, a.t, [{ createdAt: new Date('2026-03-02T10:00:00Z') }, { createdAt: new Date('2026-03-03T10:00:00Z') }], clientId);
  return r.json.agreement.id as string;
}

describe('planCatchUp', () => {
  it('proposes a reminder and find_emails into the client plan once per day, and not again while it waits', async () => {
    const a = await studioTenant(env);
    setNow('2026-03-06T07:00:00Z');
    const agreementId = await behind(a);
    await addPoolLeads(env, a.t, [1, 2, 3].map((i) => ({ email: null, emailStatus: null, status: 'waiting_for_email' as const, personKey: `p${i}|co`, createdAt: new Date('2026-02-01T10:00:00Z') })));
    const first = await planCatchUp(env.services, env.clock.now(), { orgIds: [a.t.org.id] });
    expect(first).toEqual([{ org_id: a.t.org.id, client_id: a.t.client.id, agreement_id: agreementId, day: '2026-03-06', outcome: 'proposed', step_ids: [expect.any(String), expect.any(String)] }]);
    const steps = await stepsOf(a.t.client.id);
    expect(steps.map((s) => [s.kind, s.status, s.createdBy, s.buys])).toEqual([
      ['note', 'waiting', 'system', false],
      ['find_emails', 'waiting', 'system', false],
    ]);
    expect(steps[0].params.text).toContain('Catch up on new prospects for Client A: 2 so far this month against 8 expected by today');
    expect(steps[0].params.text).toContain('42 more, about 2.4 a workday over the 18 workdays left');
    // 3 leads wait for an email, 42 are missing: search the 3.
    expect(steps[1].params).toEqual({ max_leads: 3 });
    const [plan] = await env.services.db.select().from(plans).where(eq(plans.clientId, a.t.client.id));
    expect(plan).toMatchObject({ status: 'waiting_approval', createdBy: 'system', title: 'Catch-up plan for Client A' });
    expect((await auditOf(env, a.t)).filter((e) => e.action === 'plan.step_added').map((e) => e.actor)).toEqual(['system', 'system']);

    // The same day again (a tick delivered twice): nothing new.
    const again = await planCatchUp(env.services, env.clock.now(), { orgIds: [a.t.org.id] });
    expect(again.map((o) => o.outcome)).toEqual(['already_proposed']);
    // The next workday, still off track, but the catch-up still waits for approval: nothing new either.
    setNow('2026-03-09T07:00:00Z');
    expect((await planCatchUp(env.services, env.clock.now(), { orgIds: [a.t.org.id] })).map((o) => o.outcome)).toEqual(['already_proposed']);
    expect(await stepsOf(a.t.client.id)).toHaveLength(2);

    // Once those steps ran, a later day that is still behind gets a fresh catch-up.
    await env.services.db.update(planSteps).set({ status: 'done' }).where(eq(planSteps.clientId, a.t.client.id));
    expect((await planCatchUp(env.services, env.clock.now(), { orgIds: [a.t.org.id] })).map((o) => o.outcome)).toEqual(['proposed']);
    expect((await planCatchUp(env.services, env.clock.now(), { orgIds: [a.t.org.id] })).map((o) => o.outcome)).toEqual(['already_proposed']);
    expect((await stepsOf(a.t.client.id)).filter((s) => s.status === 'waiting')).toHaveLength(2);
  });

  it('proposes concurrently run planners once', async () => {
    const a = await studioTenant(env);
    setNow('2026-03-06T07:00:00Z');
    await behind(a);
    const runs = await Promise.all([1, 2, 3].map(() => planCatchUp(env.services, env.clock.now(), { orgIds: [a.t.org.id] })));
    expect(runs.flat().filter((o) => o.outcome === 'proposed')).toHaveLength(1);
    expect(await stepsOf(a.t.client.id)).toHaveLength(1);
  });

  it('leaves on track and at risk agreements, custom ones and organizations without the Studio alone', async () => {
    const a = await studioTenant(env);
    const noStudio = await studioTenant(env);
    setNow('2026-03-09T07:00:00Z'); // Monday: 5 workdays completed, 5 expected at 1 a workday
    const b = await a.t.addClient('B');
    await a.rest('POST', `${a.base}/agreements`, { kind: 'new_prospects_per_workday', target: 1, start: '2026-03-02' });
    await addPoolLeads(env, a.t, [1, 2, 3, 4, 5].map(() => ({ createdAt: new Date('2026-03-03T10:00:00Z') })));
    await a.rest('POST', `/v1/agency/clients/${b.id}/agreements`, { kind: 'new_prospects_per_workday', target: 1, start: '2026-03-02' });
    await addPoolLeads(env, a.t, [1, 2, 3, 4].map(() => ({ createdAt: new Date('2026-03-03T10:00:00Z') })), b.id); // at risk: 4 of 5
    await a.rest('POST', `${a.base}/agreements`, { kind: 'custom', label: 'Case studies', target: 5, start: '2026-01-01' });
    await behind(noStudio);
    await noStudio.t.admin('PATCH', `/admin/v1/orgs/${noStudio.t.org.id}`, { features: { agency_tools: true, studio: false } });
    expect(await planCatchUp(env.services, env.clock.now(), { orgIds: [a.t.org.id, noStudio.t.org.id] })).toEqual([]);
    expect(await env.services.db.select().from(plans).where(and(eq(plans.orgId, a.t.org.id)))).toEqual([]);
  });
});

describe('the course tick', () => {
  it("plans each organization once, at 07:00 in its own timezone", async () => {
    const a = await studioTenant(env);
    expect((await a.t.admin('PATCH', `/admin/v1/orgs/${a.t.org.id}`, { timezone: 'Europe/Berlin' })).status).toBe(200);
    setNow('2026-03-06T05:00:00Z');
    await behind(a);
    // 05:00 UTC is 06:00 in Berlin: not yet.
    await courseTick(env.services, new Date('2026-03-06T05:00:00Z'));
    expect(await stepsOf(a.t.client.id)).toHaveLength(0);
    await courseTick(env.services, new Date('2026-03-06T06:00:00Z'));
    expect(await stepsOf(a.t.client.id)).toHaveLength(1);
    await courseTick(env.services, new Date('2026-03-06T06:00:00Z'));
    await courseTick(env.services, new Date('2026-03-06T07:00:00Z'));
    expect(await stepsOf(a.t.client.id)).toHaveLength(1);
  });
});
