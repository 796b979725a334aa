// update_leads (manual enrichment) through REST and MCP, and the admin route that switches a custom column on for
// writing: the preview's changes, provenance, the 20-new-columns limit, refused identity fields, staleness.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolColumns, poolLeads } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { importTenant, row, type ImportTenant } from './pool_import_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

/** A tenant with two imported leads. */
async function withLeads(): Promise<ImportTenant & { emails: string[]; ids: string[] }> {
  const a = await importTenant(env);
  const rows = [row(), row()];
  const r = await a.commit({ rows });
  expect(r.status, r.text).toBe(200);
  const emails = rows.map((x) => x.email as string);
  const ids = await Promise.all(emails.map(async (e) => (await a.lead(e)).id));
  return Object.assign(a, { emails, ids });
}

describe('update_leads', () => {
  it('previews per-lead changes, new columns with their types and unknown leads; the confirm writes them with manual provenance', async () => {
    const a = await withLeads();
    const before = await a.lead(a.emails[0]);
    const leads = [
      { lead_id: a.ids[0], volume_estimate: 'High', current_sender: 'Lemlist', hook: 'Opened an office in Berlin', 'Seats Sold': 12, 'Uses HubSpot': 'yes', 'Case Study': 'https://acme.com/case' },
      { email: a.emails[1].toUpperCase(), named_account: true, monthly_volume: '12,000', note: 'Met at SaaStr' },
      { email: 'nobody@nowhere.com', hook: 'x' },
    ];
    const first = await a.rest('POST', `${a.base}/leads/enrich`, { leads });
    expect(first.status, first.text).toBe(200);
    expect(first.json).toMatchObject({ confirm_token: expect.any(String), credits: 0 });
    const p = first.json.preview;
    expect(p.updated).toBe(2);
    expect(p.unknown).toEqual([{ index: 2, email: 'nobody@nowhere.com' }]);
    expect(p.new_columns).toEqual([
      { key: 'case_study', type: 'url' },
      { key: 'seats_sold', type: 'number' },
      { key: 'uses_hubspot', type: 'boolean' },
    ]);
    expect(p.leads[0]).toMatchObject({
      lead_id: a.ids[0],
      changes: { volume_band: { from: null, to: 'high' }, current_sender: { from: before.currentSender, to: 'lemlist' }, 'custom.seats_sold': { from: null, to: 12 }, 'custom.uses_hubspot': { from: null, to: true } },
    });
    expect(p.leads[1].changes).toMatchObject({ named_account: { from: null, to: true }, monthly_volume: { from: null, to: 12000 } });
    // Nothing is written before the confirm.
    expect((await a.lead(a.emails[0])).volumeBand).toBeNull();

    const viaTool = await a.tool('update_leads', { client_id: a.t.client.id, leads });
    expect(viaTool.json.preview).toEqual(p);

    const done = await a.rest('POST', `${a.base}/leads/enrich`, { leads, confirm_token: first.json.confirm_token });
    expect(done.status, done.text).toBe(200);
    expect(done.json).toMatchObject({ updated: 2, unknown: [{ index: 2 }], new_columns: p.new_columns });
    const after = await a.lead(a.emails[0]);
    expect(after).toMatchObject({ volumeBand: 'high', currentSender: 'lemlist', hook: 'Opened an office in Berlin' });
    expect(after.custom).toMatchObject({ seats_sold: 12, uses_hubspot: true, case_study: 'https://acme.com/case' });
    // The manual sender replaces the DNS scan's, and says so.
    expect(after.provenance.current_sender).toEqual({ source: 'manual (agency)', by: 'key:assistant', at: expect.any(String) });
    expect(after.provenance['custom.seats_sold'].source).toBe('manual (agency)');
    expect(after.provenance.email.source).toBe('tool');
    expect((await a.lead(a.emails[1])).monthlyVolume).toBe(12000);
    const cols = await env.services.db.select().from(poolColumns).where(eq(poolColumns.clientId, a.t.client.id));
    expect(cols.filter((c) => ['case_study', 'seats_sold', 'uses_hubspot'].includes(c.key)).map((c) => [c.key, c.type, c.useForWriting, c.createdBy])).toEqual(
      expect.arrayContaining([['seats_sold', 'number', false, 'key:assistant']]),
    );
    const audit = (await a.audit()).filter((e) => e.action === 'leads.enriched');
    expect(audit).toHaveLength(1);
    expect(audit[0].detail).toMatchObject({ updated: 2, new_columns: ['case_study', 'seats_sold', 'uses_hubspot'] });
    await a.mcp.close();
  });

  it('refuses more than 20 new custom columns naming them, and takes exactly 20', async () => {
    const a = await withLeads();
    const cols = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`col_${String(i).padStart(2, '0')}`, 'v']));
    const over = await a.rest('POST', `${a.base}/leads/enrich`, { leads: [{ lead_id: a.ids[0], ...cols(11) }, { lead_id: a.ids[1], ...cols(21) }] });
    expect(over.status).toBe(400);
    expect(over.json.error.code).toBe('validation_error');
    expect(over.json.error.message).toContain('21 new custom columns');
    expect(over.json.error.message).toContain('col_20');
    const ok = await a.enrich([{ lead_id: a.ids[0], ...cols(20) }]);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.new_columns).toHaveLength(20);
    // Known columns do not count again.
    const again = await a.enrich([{ lead_id: a.ids[1], ...cols(20), extra_one: 1 }]);
    expect(again.json.new_columns).toEqual([{ key: 'extra_one', type: 'number' }]);
    await a.mcp.close();
  });

  it.each([
    ['email_status', { email_status: 'valid' }],
    ['status', { status: 'pushed' }],
    ['id', { id: '00000000-0000-0000-0000-000000000000' }],
    ['first_name', { 'First Name': 'Eve' }],
    ['company', { company: 'Other' }],
    ['a bad volume band', { volume_band: 'huge' }],
    ['a bad linkedin_url', { linkedin_url: 'not a url' }],
    ['an object value', { stack: { a: 1 } }],
  ])('refuses %s with a 400 naming the field, writing nothing', async (_name, fields) => {
    const a = await withLeads();
    const r = await a.rest('POST', `${a.base}/leads/enrich`, { leads: [{ lead_id: a.ids[0], hook: 'ok' }, { lead_id: a.ids[1], ...fields }] });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('validation_error');
    expect(r.json.error.message).toMatch(new RegExp(`^leads\\.1\\.${Object.keys(fields)[0]}`));
    expect((await a.lead(a.emails[0])).hook).toBeNull();
    await a.mcp.close();
  });

  it('refuses an entry without lead_id or email, a value that does not fit its column, and 501 leads', async () => {
    const a = await withLeads();
    const none = await a.rest('POST', `${a.base}/leads/enrich`, { leads: [{ hook: 'x' }] });
    expect(none.json.error.message).toMatch(/^leads\.0: needs lead_id or email/);
    await a.enrich([{ lead_id: a.ids[0], seats: 3 }]);
    const wrong = await a.rest('POST', `${a.base}/leads/enrich`, { leads: [{ lead_id: a.ids[1], seats: 'many' }] });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error.message).toMatch(/^leads\.0\.seats: the column seats holds number values/);
    const many = await a.rest('POST', `${a.base}/leads/enrich`, { leads: Array.from({ length: 501 }, () => ({ lead_id: a.ids[0], hook: 'x' })) });
    expect(many.status).toBe(400);
    expect(many.json.error.message).toMatch(/leads/);
    await a.mcp.close();
  });

  it('gives no confirm token when no lead is known, and answers preview_stale when a lead changed since the preview', async () => {
    const a = await withLeads();
    const unknown = await a.rest('POST', `${a.base}/leads/enrich`, { leads: [{ email: 'ghost@nowhere.com', hook: 'x' }] });
    expect(unknown.json).toMatchObject({ confirm_token: null, blocked_by: 'not_found' });
    const leads = [{ lead_id: a.ids[0], hook: 'first' }];
    const first = await a.rest('POST', `${a.base}/leads/enrich`, { leads });
    await a.enrich([{ lead_id: a.ids[0], note: 'changed meanwhile' }]);
    const stale = await a.rest('POST', `${a.base}/leads/enrich`, { leads, confirm_token: first.json.confirm_token });
    expect(stale.status).toBe(409);
    expect(stale.json.error.code).toBe('preview_stale');
    expect((await a.lead(a.emails[0])).hook).toBeNull();
    await a.mcp.close();
  });

  it("treats another organization's client and leads as not found", async () => {
    const a = await withLeads();
    const b = await withLeads();
    const r = await a.rest('POST', `/v1/agency/clients/${b.t.client.id}/leads/enrich`, { leads: [{ lead_id: b.ids[0], hook: 'x' }] });
    expect(r.status).toBe(404);
    // Another tenant's lead id under one's own client is simply unknown.
    const own = await a.rest('POST', `${a.base}/leads/enrich`, { leads: [{ lead_id: b.ids[0], hook: 'x' }] });
    expect(own.json).toMatchObject({ blocked_by: 'not_found', preview: { unknown: [{ index: 0, lead_id: b.ids[0] }] } });
    const viaTool = await a.tool('update_leads', { client_id: b.t.client.id, leads: [{ lead_id: b.ids[0], hook: 'x' }] });
    expect(viaTool.json.error.code).toBe('not_found');
    expect((await env.services.db.select().from(poolLeads).where(eq(poolLeads.id, b.ids[0])))[0].hook).toBeNull();
    await a.mcp.close();
    await b.mcp.close();
  });
});

describe('PATCH /admin/v1/clients/{client_id}/columns/{key}', () => {
  it('switches a column on for writing with an admin audit row; unknown column or client 404; bad body 400', async () => {
    const a = await withLeads();
    await a.enrich([{ lead_id: a.ids[0], 'Seats Sold': 4 }]);
    const path = `/admin/v1/clients/${a.t.client.id}/columns`;
    const r = await a.t.admin('PATCH', `${path}/seats_sold`, { use_for_writing: true });
    expect(r.status, r.text).toBe(200);
    expect(r.json.column).toMatchObject({ key: 'seats_sold', type: 'number', use_for_writing: true, created_by: 'key:assistant' });
    const audit = (await a.audit()).filter((e) => e.action === 'pool_column.updated');
    expect(audit).toMatchObject([{ actor: 'admin', target: `client:${a.t.client.id}`, detail: { key: 'seats_sold', use_for_writing: true } }]);
    // The key as a person types it finds the same column.
    expect((await a.t.admin('PATCH', `${path}/Seats%20Sold`, { use_for_writing: false })).json.column.use_for_writing).toBe(false);
    expect((await a.t.admin('PATCH', `${path}/nope`, { use_for_writing: true })).status).toBe(404);
    expect((await a.t.admin('PATCH', `/admin/v1/clients/00000000-0000-4000-8000-000000000000/columns/seats_sold`, { use_for_writing: true })).status).toBe(404);
    const bad = await a.t.admin('PATCH', `${path}/seats_sold`, { use_for_writing: 'yes' });
    expect(bad.status).toBe(400);
    expect((await a.t.admin('PATCH', `${path}/seats_sold`, { use_for_writing: true }, 'wrong-token')).status).toBe(401);
    await a.mcp.close();
  });
});
