// The CRM feed's guarantee on real PostgreSQL (Neon driver, a pool of 10): a sync client that follows core §4
// rule 2 (store each run's start time, pass it as updated_since next run) never misses a change, even when writes
// commit while its run is in progress. PGlite runs one transaction at a time and cannot show any of this.
//
// The client here uses the worst clock the feed tolerates: UPDATED_SINCE_SKEW_MS ahead of the database. The
// server widens updated_since by exactly that much, so the effective cut is the run's true start and the overlap
// cannot hide a miss.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { leads } from '../../schema';
import { stampLeadChange, UPDATED_SINCE_SKEW_MS } from '../../lib/crm/change_clock';
import type { Db } from '../../lib/db/types';
import { startTestEnv, TIER } from '../helpers/harness';
import { webhookSuite } from '../helpers/webhook_env';
import { randomIp } from '../helpers/tenant';
import { crmTenant, listAll, type CrmTenant } from '../api/crm_helpers';

const { env } = webhookSuite({ integrationOnly: true, start: startTestEnv });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A run's start time as the worst tolerated client clock reads it. */
const clientNow = () => new Date(Date.now() + UPDATED_SINCE_SKEW_MS).toISOString();
const age = (t: CrmTenant) => env.services.db.execute(sql`update leads set updated_at = updated_at - interval '10 minutes' where org_id = ${t.org.id}::uuid`);

/** A writer transaction that has done its change and is held open just before COMMIT (a slow network, a pause). */
function heldWriter(write: (tx: Db) => Promise<void>) {
  let release!: () => void;
  let ready!: () => void;
  const hold = new Promise<void>((r) => (release = r));
  const written = new Promise<void>((r) => (ready = r));
  const done = env.services.db.transaction(async (tx) => {
    await write(tx);
    ready();
    await hold;
  });
  return { written, release, done };
}

/** One sync run (rule 2): every page from the start, or from updated_since; the leads it saw, once each. */
async function syncRun(t: CrmTenant, since: string | null, limit: number) {
  const { leads: got } = await listAll(t, since ? `updated_since=${encodeURIComponent(since)}` : '', { limit });
  const ids = got.map((l) => l.id);
  expect(new Set(ids).size, 'a lead twice in one run').toBe(ids.length);
  return got;
}

describe.skipIf(TIER !== 'integration')('the change feed never misses a write (real PostgreSQL)', () => {
  it('a write stamped before a run starts and committed during it is in that run: the page waits for the commit', async () => {
    const t = await crmTenant(env);
    const { leadId } = await t.lead({ classification: 'hot' });
    await age(t);
    const writer = heldWriter(async (tx) => {
      await tx.update(leads).set({ phase: 'proposal' }).where(eq(leads.id, leadId));
      await stampLeadChange(tx, t.org.id, [leadId], { crm: true });
    });
    await writer.written;
    await sleep(5); // strictly after the stamp (millisecond stamps), before the commit: the classic miss
    const runStart = clientNow();
    let answered = false;
    const page = t.crm('GET', '/v1/crm/leads?limit=50').then((r) => ((answered = true), r));
    await sleep(400);
    expect(answered, 'the page must wait for the writer that holds the change lock').toBe(false);
    writer.release();
    await writer.done;
    const r = await page;
    expect(r.json.leads.find((l: any) => l.id === leadId).phase).toBe('proposal');
    // The next run (from this run's start) does not have it: the first run got it by waiting, not by an overlap.
    expect(await syncRun(t, runStart, 50)).toEqual([]);
  });

  it('negative control: a writer that stamps without the change clock is missed by both runs', async () => {
    // Shows that the harness sees a miss: the same interleaving as above with the classic stamp (a time taken
    // before the commit, here the transaction's own start), no change lock.
    const t = await crmTenant(env);
    const { leadId } = await t.lead({ classification: 'hot' });
    await age(t);
    const writer = heldWriter(async (tx) => {
      await tx.execute(sql`update leads set phase = 'proposal', updated_at = now(), crm_updated_at = now() where id = ${leadId}::uuid`);
    });
    await writer.written;
    await sleep(5);
    const runStart = clientNow();
    const first = await syncRun(t, null, 50);
    expect(first.find((l) => l.id === leadId).phase).toBe('new'); // read before the commit
    writer.release();
    await writer.done;
    expect(await syncRun(t, runStart, 50)).toEqual([]); // missed for good
    expect((await t.crm('GET', `/v1/crm/leads/${leadId}`)).json.lead.phase).toBe('proposal');
  });

  it('concurrent writers on every path and a client syncing by rule 2 all the while: its copy ends equal to the truth', { timeout: 90_000 }, async () => {
    const t = await crmTenant(env);
    const seeds = await Promise.all(Array.from({ length: 24 }, (_, i) => t.lead({ classification: i % 2 ? 'hot' : 'warm', email: `seed${i}@globex-${i}.com` })));
    const crmKeys = await Promise.all(Array.from({ length: 8 }, (_, i) => t.addKey({ name: `crm ${i}`, scopes: ['crm.write'], client_id: t.client.id, rate_limit_per_minute: 1000 })));
    const coreKey = await t.addKey({ name: 'core', scopes: ['*'], rate_limit_per_minute: 1000, autonomy_level: 2 });
    await age(t);

    let stop = false;
    let counter = 0;
    const writes = { done: 0, duringRun: 0 };
    let running = false;
    const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];
    const unanswered = seeds.map((s) => s.replyId);
    const expectOk = (r: { status: number; text: string }, what: string) => expect(r.status < 300 || r.status === 409 || r.status === 429, `${what}: ${r.status} ${r.text}`).toBe(true);

    async function writeOnce(w: number) {
      const lead = pick(seeds);
      const op = Math.random();
      const n = ++counter;
      if (op < 0.3) {
        expectOk(await t.crm('PATCH', `/v1/crm/leads/${lead.leadId}`, { deal: { value: n, currency: 'EUR' } }, crmKeys[w % crmKeys.length]), 'crm patch');
      } else if (op < 0.45) {
        expectOk(await t.crm('POST', `/v1/crm/leads/${lead.leadId}/notes`, { text: `note ${n}` }, crmKeys[w % crmKeys.length]), 'crm note');
      } else if (op < 0.6) {
        expectOk(await t.call('PATCH', `/v1/leads/${lead.replyId}`, { key: coreKey, body: { notes: `legacy ${n}` }, ip: randomIp() }), 'core patch');
      } else if (op < 0.75) {
        const email = Math.random() < 0.5 ? `seed${seeds.indexOf(lead)}@globex-${seeds.indexOf(lead)}.com` : `new${n}@initech-${n}.com`;
        await t.reply({ from_email: email, body: `Sounds good, can we schedule a call next week? (${n})` });
      } else if (op < 0.85) {
        const replyId = unanswered.pop();
        if (replyId) expectOk(await t.call('POST', `/v1/replies/${replyId}/send`, { key: coreKey, body: { body: `answer ${n}` }, ip: randomIp() }), 'send');
      } else {
        // A writer that commits slowly after stamping: the window in which the classic miss happens.
        await env.services.db.transaction(async (tx) => {
          await tx.select().from(leads).where(eq(leads.id, lead.leadId)).for('update');
          await tx.update(leads).set({ nextAction: { date: '2026-06-01', note: `slow ${n}` } }).where(eq(leads.id, lead.leadId));
          await stampLeadChange(tx, t.org.id, [lead.leadId], { crm: true });
          await sleep(Math.random() * 80);
        });
      }
      writes.done++;
      if (running) writes.duringRun++;
    }
    const writers = Array.from({ length: 6 }, async (_, w) => {
      while (!stop) await writeOnce(w);
    });

    // The sync client: runs back to back, each from the previous run's start (its own, worst-case clock).
    const mirror = new Map<string, any>();
    const apply = (got: any[]) => {
      for (const l of got) {
        const had = mirror.get(l.id);
        if (!had || Date.parse(l.updated_at) >= Date.parse(had.updated_at)) mirror.set(l.id, l);
      }
    };
    let since: string | null = null;
    let runs = 0;
    const until = Date.now() + 6_000;
    while (Date.now() < until) {
      const start = clientNow();
      running = true;
      apply(await syncRun(t, since, 5));
      running = false;
      since = start;
      runs++;
    }
    stop = true;
    await Promise.all(writers);
    // One more run, from the start of the last run that overlapped the writers.
    apply(await syncRun(t, since, 5));

    const truth = new Map((await listAll(t, '', { limit: 200 })).leads.map((l) => [l.id, l]));
    expect(runs).toBeGreaterThanOrEqual(5);
    expect(writes.duringRun).toBeGreaterThanOrEqual(50);
    expect([...mirror.keys()].sort()).toEqual([...truth.keys()].sort());
    for (const [id, lead] of truth) expect(mirror.get(id), id).toEqual(lead);
  });
});
