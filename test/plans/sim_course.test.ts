// End to end on simulated time. The course's daily planner is a registered tick (functions/jobs/handlers.ts), so
// advancing CLOCK=sim past 07:00 in an organization's zone proposes a catch-up into the client's plan for an
// agreement that is off track, once a day, as the system. And weeks of a plan run in one advance of the clock.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import '../../functions/jobs/handlers';
import { createNodeServices, type NodeServices } from '../../lib/runtime/node';
import { createNodeApp } from '../../scripts/node_server';
import { agreements, organizations, planSteps, plans } from '../../schema';
import { ADMIN_TOKEN, startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant, randomIp, request } from '../helpers/tenant';

let wall: TestEnv;
let sim: TestEnv;
let simServices: NodeServices;

beforeAll(async () => {
  wall = await startTestEnv({ CLOCK: 'sim' });
  simServices = await createNodeServices(wall.config, { database: wall.services.database });
  sim = { ...wall, services: simServices, app: createNodeApp(simServices) };
});
afterAll(() => wall.close());

const day = (d: Date) => d.toISOString().slice(0, 10);

it('two simulated days propose one catch-up per day for an off-track prospects agreement, as the system', async () => {
  const t = await newTenant(wall, { features: { agency_tools: true, studio: true } });
  const start = new Date(simServices.clock.now().getTime() - 10 * 86_400_000);
  await simServices.db.insert(agreements).values({ orgId: t.org.id, clientId: t.client.id, kind: 'new_prospects_per_workday', target: 20, start: day(start), catchUp: 'spread', createdBy: 'test' });

  const advance = await request(sim, 'POST', '/admin/v1/sim/clock', { key: null, body: { advance_seconds: 2 * 86_400 }, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, ip: randomIp() });
  expect(advance.status, advance.text).toBe(200);
  const planner = advance.json.ran.filter((r: { kind: string; id: string }) => r.kind === 'tick' && r.id === 'course.catch_up');
  expect(planner.length).toBe(48); // hourly, for two days; it acts only at 07:xx in the organization's zone

  const [plan] = await simServices.db.select().from(plans).where(and(eq(plans.orgId, t.org.id), eq(plans.clientId, t.client.id)));
  expect(plan).toMatchObject({ status: 'waiting_approval' });
  const steps = await simServices.db.select().from(planSteps).where(eq(planSteps.planId, plan.id));
  // Nothing is bought or run: a note naming the shortfall waits for approval; the second day adds none while it waits.
  expect(steps.map((s) => [s.kind, s.status, s.createdBy])).toEqual([['note', 'waiting', 'system']]);
});

it('weeks of a plan in one call: proposed and approved through the tools, its steps on days 0, 7, 14 and 21 run at 08:00 in the organization zone', async () => {
  const t = await newTenant(wall, { features: { agency_tools: true, studio: true } });
  await simServices.db.update(organizations).set({ timezone: 'Europe/Berlin' }).where(eq(organizations.id, t.org.id));
  const key = await t.addKey({ name: 'assistant', kind: 'agency', scopes: ['agency.plans.approve'] });
  const ip = randomIp();
  const call = (method: string, path: string, body?: unknown) => request(sim, method, path, { key, body, ip });
  let planId = '';
  for (const d of [0, 7, 14, 21]) {
    const r = await call('POST', `/v1/agency/clients/${t.client.id}/plan/steps`, { kind: 'note', params: { text: `week ${d / 7}` }, day: d });
    expect(r.status, r.text).toBe(201);
    planId = r.json.plan.id;
  }
  const preview = await call('POST', `/v1/agency/plans/${planId}/approve`, {});
  expect(preview.json.confirm_token, preview.text).toBeTruthy();
  const approved = await call('POST', `/v1/agency/plans/${planId}/approve`, { confirm_token: preview.json.confirm_token });
  expect(approved.status, approved.text).toBe(200);

  const advance = await request(sim, 'POST', '/admin/v1/sim/clock', { key: null, body: { advance_seconds: 22 * 86_400 }, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, ip });
  expect(advance.status, advance.text).toBe(200);
  const plan = (await call('GET', `/v1/agency/plans/${planId}`)).json.plan;
  expect(plan.status).toBe('done');
  const steps = await simServices.db.select().from(planSteps).where(eq(planSteps.planId, planId));
  const berlin = (d: Date) => new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit', hour12: false }).format(d);
  expect(steps.map((s) => [s.day, s.status, berlin(s.ranAt!)]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([
    [0, 'done', expect.any(String)], // day 0 approved after 08:00 runs at once
    [7, 'done', '08:00'],
    [14, 'done', '08:00'],
    [21, 'done', '08:00'],
  ]);
});
