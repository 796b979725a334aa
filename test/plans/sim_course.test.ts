// End to end on simulated time: the course's daily planner is a registered tick (functions/jobs/handlers.ts), so
// advancing CLOCK=sim past 07:00 in an organization's zone proposes a catch-up into the client's plan for an
// agreement that is off track, once a day, as the system.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import '../../functions/jobs/handlers';
import { createNodeServices, type NodeServices } from '../../lib/runtime/node';
import { createNodeApp } from '../../scripts/node_server';
import { agreements, planSteps, plans } from '../../schema';
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
