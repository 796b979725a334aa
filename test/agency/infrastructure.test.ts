// The infrastructure snapshot and get_infrastructure: built from our tables only, stored, answered with its age; the
// first call builds it on the spot; the 10-minute refresh is set-based over every client with domains or mailboxes.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tick } from '../../lib/clock/ticks';
import { MAILBOX_TICK } from '../../lib/infra/mailbox_tick';
import { refreshSnapshots, SNAPSHOT_TICK } from '../../lib/infra/snapshot';
import { registerInfraTicks } from '../../lib/infra/ticks';
import { infraSnapshots, planSteps, plans } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { planTenant } from '../plans/plans_helpers';
import { addDomain, addMailboxes, daysAgo, overrideHealth, tickDay } from './infra_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

/** A waiting purchase step, inserted as a plan row (the step kinds are another file's business). */
async function waitingStep(orgId: string, clientId: string, kind: string, params: Record<string, unknown>) {
  const db = env.services.db;
  const [plan] = await db.insert(plans).values({ orgId, clientId, title: 'infra', status: 'waiting_approval', createdBy: 'test' }).returning();
  await db.insert(planSteps).values({ planId: plan.id, orgId, clientId, position: 1, kind, params, status: 'waiting', buys: true, undoable: false, createdBy: 'test' });
}

describe('get_infrastructure', () => {
  it("builds the first snapshot from the tables (age 0), then answers the stored one with its age until it is refreshed", async () => {
    const a = await planTenant(env);
    const { org, client, campaign } = a.t;
    const d1 = await addDomain(env, org.id, client.id, `a${Date.now().toString(36)}-mail.com`);
    const d2 = await addDomain(env, org.id, client.id, `b${Date.now().toString(36)}-mail.com`, 'bought');
    await addMailboxes(env, d1, 2, { status: 'active', since: daysAgo(env, 40), dailyCap: 30, campaignId: campaign.id });
    await addMailboxes(env, d1, 1, { status: 'ramping', since: daysAgo(env, 3), dailyCap: 10, campaignId: campaign.id });
    await addMailboxes(env, d1, 1, { status: 'reserve', since: daysAgo(env, 3) });
    await addMailboxes(env, d1, 1, { status: 'retired', since: daysAgo(env, 3) });
    const [sick] = await addMailboxes(env, d1, 1, { status: 'active', since: daysAgo(env, 40), dailyCap: 30, campaignId: campaign.id });
    await waitingStep(org.id, client.id, 'create_mailboxes', { domain: d2.name, count: 2 });
    // Auto-protect off for this client: the failing mailbox keeps sending and is counted as failing.
    await a.rest('PUT', `${a.base}/auto-protect`, { auto_protect: false });
    await overrideHealth(env, org.id, sick.address, { bounceRate: 0.2 });
    await tickDay(env, org.id, daysAgo(env, 0));

    const first = await a.rest('GET', `${a.base}/infrastructure`);
    expect(first.status, first.text).toBe(200);
    expect(first.json.snapshot.age_seconds).toBe(0);
    expect(first.json.infrastructure).toEqual({
      domains: [
        { name: d1.name, status: 'dns_ready', mailboxes: 5, listed: false },
        { name: d2.name, status: 'bought', mailboxes: 0, listed: false },
      ],
      mailboxes: { warming: 0, ramping: 1, active: 3, reserve: 1, parked: 0, retired: 1 },
      capacity_today: 30 * 3 + 10,
      failing: 1,
      reserves_ready: 1,
      waiting_steps: 1,
    });
    const [stored] = await env.services.db.select().from(infraSnapshots).where(eq(infraSnapshots.clientId, client.id));
    expect(stored.body).toEqual(first.json.infrastructure);

    // Later changes show only after the refresh; the answer meanwhile is the stored snapshot, older by the clock.
    await addMailboxes(env, d1, 1, { status: 'reserve', since: daysAgo(env, 1) });
    env.clock.advance(125_000);
    const cached = await a.tool('get_infrastructure', { client_id: client.id });
    expect(cached.isError, cached.text).toBe(false);
    expect(cached.json.snapshot.taken_at).toBe(first.json.snapshot.taken_at);
    expect(cached.json.snapshot.age_seconds).toBeGreaterThanOrEqual(125);
    expect(cached.json.infrastructure.reserves_ready).toBe(1);

    const at = env.clock.now();
    expect(await refreshSnapshots(env.services, at, { clientIds: [client.id] })).toBe(1);
    const fresh = await a.rest('GET', `${a.base}/infrastructure`);
    expect(fresh.json.snapshot.taken_at).toBe(at.toISOString());
    expect(fresh.json.infrastructure.reserves_ready).toBe(2);
    expect(fresh.json.infrastructure.mailboxes.reserve).toBe(2);
  });

  it('answers an empty infrastructure for a client without any, and 404 / 400 for another organization or a bad id', async () => {
    const a = await planTenant(env);
    const b = await planTenant(env);
    const empty = await a.rest('GET', `${a.base}/infrastructure`);
    expect(empty.status).toBe(200);
    expect(empty.json.infrastructure).toMatchObject({ domains: [], capacity_today: 0, failing: 0, reserves_ready: 0, waiting_steps: 0 });
    const other = await a.rest('GET', `/v1/agency/clients/${b.t.client.id}/infrastructure`);
    expect(other.status).toBe(404);
    expect(other.json.error.code).toBe('not_found');
    const bad = await a.rest('GET', '/v1/agency/clients/nope/infrastructure');
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toContain('client_id');
    const [none] = await env.services.db.select().from(infraSnapshots).where(eq(infraSnapshots.clientId, b.t.client.id));
    expect(none).toBeUndefined();
  });

  it('refreshes every named client in one pass, only clients with domains or mailboxes', async () => {
    const a = await planTenant(env);
    const { org, client } = a.t;
    const second = await a.t.addClient('Client B');
    const bare = await a.t.addClient('Client C');
    for (const c of [client, second]) {
      const d = await addDomain(env, org.id, c.id);
      await addMailboxes(env, d, 2, { status: 'reserve', since: daysAgo(env, 2) });
    }
    const at = new Date(env.clock.now().getTime() - 60_000);
    const q0 = env.services.dbStats.queries;
    expect(await refreshSnapshots(env.services, at, { clientIds: [client.id, second.id, bare.id] })).toBe(2);
    // One read of the due clients, three aggregate reads and one upsert, whatever the number of clients.
    expect(env.services.dbStats.queries - q0).toBeLessThanOrEqual(5);
    const rows = await env.services.db.select().from(infraSnapshots).where(eq(infraSnapshots.orgId, org.id));
    expect(rows.map((r) => r.clientId).sort()).toEqual([client.id, second.id].sort());
    expect(rows.every((r) => r.takenAt.toISOString() === at.toISOString())).toBe(true);
  });

  it('registers the 10-minute snapshot and the hourly mailbox day as ticks', () => {
    registerInfraTicks();
    expect(tick(SNAPSHOT_TICK)?.everyMs).toBe(600_000);
    expect(tick(MAILBOX_TICK)?.everyMs).toBe(3_600_000);
  });
});
