// core §4 CRM list and rules 1-2: opaque cursor, limit (default 50, max 200), comma-list filters applied per lead
// after paging (short pages), every lead exactly once even while leads change, updated_since for incremental sync
// moved by every write path.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leads } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { crmTenant, listAll, type CrmTenant } from './crm_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

async function leadsOf(t: CrmTenant, classes: Array<string | null>) {
  const out: string[] = [];
  for (const c of classes) out.push((await t.lead({ classification: c })).leadId);
  return out;
}

/** Pretends the tenant's leads last changed ten minutes ago (the feed's skew overlap is one minute). */
const age = (t: CrmTenant) => env.services.db.execute(sql`update leads set updated_at = updated_at - interval '10 minutes' where org_id = ${t.org.id}::uuid`);

describe('paging', () => {
  it('follows next_cursor to the end: every visible lead exactly once, in id order, limit honoured', async () => {
    const t = await crmTenant(env);
    const visible = await leadsOf(t, ['hot', 'warm', 'cold', 'hot', 'warm', 'cold', 'hot']);
    await leadsOf(t, ['ooo', 'not_interested', null]);
    const { leads: got, pages } = await listAll(t, '', { limit: 3 });
    expect(got.map((l) => l.id)).toEqual([...visible].sort());
    expect(pages.map((p) => p.leads.length)).toEqual([3, 3, 1]);
    expect(pages.slice(0, -1).every((p) => p.has_more && typeof p.next_cursor === 'string')).toBe(true);
  });

  it('limit defaults to 50 and accepts 1..200; outside is 400 validation_error naming limit', async () => {
    const t = await crmTenant(env);
    await Promise.all(Array.from({ length: 51 }, () => t.lead({ classification: 'hot' })));
    const page = await t.crm('GET', '/v1/crm/leads');
    expect([page.json.leads.length, page.json.has_more]).toEqual([50, true]);
    expect((await t.crm('GET', '/v1/crm/leads?limit=200')).status).toBe(200);
    for (const bad of ['0', '201', 'abc']) {
      const r = await t.crm('GET', `/v1/crm/leads?limit=${bad}`);
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('validation_error');
      expect(r.json.error.message).toMatch(/^limit/);
    }
  });

  it('a cursor that is not ours, or issued for other filters, is 400; a cursor alone continues its filters', async () => {
    const t = await crmTenant(env);
    const ids = await leadsOf(t, ['hot', 'warm', 'hot', 'warm', 'hot']);
    for (const bad of ['nonsense', 'eyJ2IjoyfQ', Buffer.from('{"v":1,"after":"x","filters":{}}').toString('base64url')]) {
      const r = await t.crm('GET', `/v1/crm/leads?cursor=${bad}`);
      expect([r.status, r.json.error.code]).toEqual([400, 'validation_error']);
    }
    const first = await t.crm('GET', '/v1/crm/leads?limit=2&classification=hot');
    expect(first.json.has_more).toBe(true);
    const cur = encodeURIComponent(first.json.next_cursor);
    const mismatch = await t.crm('GET', `/v1/crm/leads?classification=warm&cursor=${cur}`);
    expect([mismatch.status, mismatch.json.error.message]).toEqual([400, expect.stringMatching(/^cursor/)]);
    expect((await t.crm('GET', `/v1/crm/leads?classification=hot&cursor=${cur}`)).status).toBe(200);
    const rest = await t.crm('GET', `/v1/crm/leads?limit=10&cursor=${cur}`);
    const hot = ids.filter((_, i) => i % 2 === 0);
    expect([...first.json.leads, ...rest.json.leads].map((l: any) => l.id).sort()).toEqual(hot.sort());
  });

  it('returns every lead exactly once even when leads change or arrive between pages', async () => {
    const t = await crmTenant(env);
    const ids = [...(await leadsOf(t, Array(9).fill('warm')))].sort();
    const seen: string[] = [];
    let r = await t.crm('GET', '/v1/crm/leads?limit=3');
    seen.push(...r.json.leads.map((l: any) => l.id));
    // Between pages: a lead already returned and one not yet returned change; a new lead arrives.
    await t.crm('PATCH', `/v1/crm/leads/${ids[0]}`, { phase: 'discovery' });
    await t.crm('PATCH', `/v1/crm/leads/${ids[7]}`, { deal: { value: 1200, currency: 'EUR' } });
    await t.lead({ classification: 'hot' });
    while (r.json.has_more) {
      r = await t.crm('GET', `/v1/crm/leads?limit=3&cursor=${encodeURIComponent(r.json.next_cursor)}`);
      seen.push(...r.json.leads.map((l: any) => l.id));
    }
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of ids) expect(seen).toContain(id);
  });
});

describe('filters apply per lead after paging', () => {
  it('classification and phase comma lists, has_next_action; pages may be short while has_more stays true', async () => {
    const t = await crmTenant(env, { portal: { show_not_interested: true } });
    const ids = await leadsOf(t, ['hot', 'warm', 'cold', 'not_interested', 'hot', 'warm']);
    await t.crm('PATCH', `/v1/crm/leads/${ids[0]}`, { phase: 'proposal', next_action: { date: '2026-04-01', note: 'send contract' } });
    await t.crm('PATCH', `/v1/crm/leads/${ids[1]}`, { phase: 'won' });
    const hotWarm = await listAll(t, 'classification=hot,warm', { limit: 2 });
    expect(hotWarm.leads.map((l) => l.id).sort()).toEqual([ids[0], ids[1], ids[4], ids[5]].sort());
    const phases = await listAll(t, 'phase=proposal,won', { limit: 2 });
    expect(phases.leads.map((l) => l.id).sort()).toEqual([ids[0], ids[1]].sort());
    expect(phases.pages.some((p) => p.has_more && p.leads.length < 2)).toBe(true);
    expect((await listAll(t, 'has_next_action=true')).leads.map((l) => l.id)).toEqual([ids[0]]);
    expect((await listAll(t, 'has_next_action=false')).leads).toHaveLength(5);
    expect((await listAll(t, 'classification=not_interested&phase=new')).leads.map((l) => l.id)).toEqual([ids[3]]);
  });

  it('an unknown filter value is 400 naming the filter', async () => {
    const t = await crmTenant(env);
    for (const q of ['classification=hot,lukewarm', 'phase=closed', 'has_next_action=yes', 'updated_since=yesterday']) {
      const r = await t.crm('GET', `/v1/crm/leads?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.json.error.message.split(':')[0]).toBe(q.split('=')[0]);
    }
  });
});

describe('updated_since (incremental sync)', () => {
  it('returns only leads changed since, by every write path: ingestion, PATCH /v1/leads, send, CRM update, CRM note', async () => {
    const t = await crmTenant(env);
    const ids = await leadsOf(t, Array(7).fill('warm'));
    const replyOf = async (id: string) => (await env.services.db.query.replies.findFirst({ where: (r, { eq: is }) => is(r.leadId, id) }))!.id;
    await age(t);
    const since = new Date().toISOString();
    expect((await listAll(t, `updated_since=${since}`)).leads).toEqual([]);

    const lead0 = await env.services.db.query.leads.findFirst({ where: (l, { eq: is }) => is(l.id, ids[0]) });
    await t.reply({ from_email: lead0!.email, body: 'One more question about onboarding.' });
    expect((await t.call('PATCH', `/v1/leads/${await replyOf(ids[1])}`, { body: { notes: 'VIP' } })).status).toBe(200);
    const sender = await t.addKey({ name: 'agent', autonomy_level: 2 });
    expect((await t.call('POST', `/v1/replies/${await replyOf(ids[2])}/send`, { key: sender, body: { body: 'Here you go.' } })).status).toBe(200);
    expect((await t.crm('PATCH', `/v1/crm/leads/${ids[3]}`, { phase: 'contacted' })).status).toBe(200);
    expect((await t.crm('POST', `/v1/crm/leads/${ids[4]}/notes`, { text: 'called' })).status).toBe(201);

    const changed = await listAll(t, `updated_since=${encodeURIComponent(since)}`, { limit: 2 });
    expect(changed.leads.map((l) => l.id).sort()).toEqual(ids.slice(0, 5).sort());
    for (const l of changed.leads) expect(Date.parse(l.updated_at)).toBeGreaterThanOrEqual(Date.parse(since));
  });

  it('stamps are monotonic per organization, and at millisecond precision (they round-trip through JSON)', async () => {
    const t = await crmTenant(env);
    const ids = await leadsOf(t, ['hot', 'hot', 'hot']);
    const stamps: string[] = [];
    for (const id of [...ids, ...ids]) stamps.push((await t.crm('POST', `/v1/crm/leads/${id}/notes`, { text: 'n' })).json.lead.updated_at);
    const times = stamps.map((s) => Date.parse(s));
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThan(times[i - 1]);
    const [row] = await env.services.db.select({ at: sql<string>`to_char(${leads.updatedAt} at time zone 'UTC', 'US')` }).from(leads).where(eq(leads.id, ids[2]));
    expect(Number(row.at) % 1000).toBe(0);
  });
});

describe('updated_since is exact, and server_time is the cut to store', () => {
  const setUpdatedAt = (id: string, at: Date) => env.services.db.update(leads).set({ updatedAt: at }).where(eq(leads.id, id));

  it('returns exactly the leads with updated_at at or after updated_since: nothing earlier, however close', async () => {
    const t = await crmTenant(env);
    const ids = await leadsOf(t, ['hot', 'warm', 'cold', 'hot']);
    const cut = new Date(Date.now() - 3_600_000);
    await setUpdatedAt(ids[0], new Date(cut.getTime() - 30_000)); // 30 s before: not a change after the cut
    await setUpdatedAt(ids[1], new Date(cut.getTime() - 1));
    await setUpdatedAt(ids[2], cut); // at the cut: included
    await setUpdatedAt(ids[3], new Date(cut.getTime() + 1));
    const got = await listAll(t, `updated_since=${encodeURIComponent(cut.toISOString())}`, { limit: 1 });
    expect(got.leads.map((l) => l.id).sort()).toEqual([ids[2], ids[3]].sort());
    // The same cut written with an offset is the same instant.
    const offset = new Date(cut.getTime() + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
    expect((await listAll(t, `updated_since=${encodeURIComponent(offset)}`)).leads.map((l) => l.id).sort()).toEqual([ids[2], ids[3]].sort());
  });

  it('every page carries server_time: the database time when it was read, later pages later', async () => {
    const t = await crmTenant(env);
    await leadsOf(t, ['hot', 'warm', 'cold']);
    const before = Date.now();
    const { pages } = await listAll(t, '', { limit: 2 });
    const after = Date.now();
    expect(pages).toHaveLength(2);
    for (const p of pages) {
      expect(p.server_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      // The database runs on this machine's clock (both tiers), so the page was read between these two readings.
      expect(Date.parse(p.server_time)).toBeGreaterThanOrEqual(before - 1);
      expect(Date.parse(p.server_time)).toBeLessThanOrEqual(after);
    }
    expect(Date.parse(pages[1].server_time)).toBeGreaterThanOrEqual(Date.parse(pages[0].server_time));
    const doc = (await t.call('GET', '/openapi.json', { key: null })).json;
    expect(doc.components.schemas.CrmLeadPage.required).toContain('server_time');
  });

  it("a sync that stores its first page's server_time (not its own clock) misses nothing and sees nothing old again", async () => {
    const t = await crmTenant(env);
    const ids = [...(await leadsOf(t, Array(6).fill('warm')))].sort();
    await age(t);
    // Run 1: everything, page by page; changes land while it runs, before and after the cursor.
    let page = await t.crm('GET', '/v1/crm/leads?limit=2');
    const stored = page.json.server_time;
    const run1 = [...page.json.leads];
    await t.crm('PATCH', `/v1/crm/leads/${ids[0]}`, { phase: 'discovery' }); // already returned in run 1
    await t.crm('POST', `/v1/crm/leads/${ids[5]}/notes`, { text: 'still to come in run 1' });
    const arrived = (await t.lead({ classification: 'hot' })).leadId;
    while (page.json.has_more) {
      page = await t.crm('GET', `/v1/crm/leads?limit=2&cursor=${encodeURIComponent(page.json.next_cursor)}`);
      run1.push(...page.json.leads);
    }
    // Keyset paging by id: the lead that arrived mid-run is in run 1 only if its id sorts after the cursor.
    expect(run1.map((l) => l.id).filter((id) => id !== arrived).sort()).toEqual(ids);
    // server_time is the service's own time (a client clock running ahead would have stored a cut after these
    // changes), so the next run from it returns each change made since run 1 began, and nothing else.
    await t.crm('PATCH', `/v1/crm/leads/${ids[2]}`, { phase: 'proposal' }); // between the runs
    const run2 = await listAll(t, `updated_since=${encodeURIComponent(stored)}`, { limit: 2 });
    expect(run2.leads.map((l) => l.id).sort()).toEqual([ids[0], ids[2], ids[5], arrived].sort());
    expect(run2.leads.find((l) => l.id === ids[0]).phase).toBe('discovery');
  });
});
