// import_leads and list_imports through REST and the MCP SDK client: the pipeline's counters for each outcome,
// chunks joined by import_id, the same row twice, never-mail and the sequencer snapshot at import, the dry run
// storing nothing, the two-step confirm and its staleness, limits, bad input and tenant isolation.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { icps, leadImports, poolLeads } from '../../schema';
import { importLeadRows } from '../../lib/pool/import';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { importTenant, row } from './pool_import_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

describe('listing', () => {
  it('lists the import tools under leads, as Studio writes and a read, with confirm_token on import_leads', async () => {
    const a = await importTenant(env);
    const tools = new Map((await a.mcp.listTools()).tools.map((x) => [x.name, x]));
    expect(tools.get('import_leads')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(tools.get('update_leads')!.annotations).toMatchObject({ readOnlyHint: false });
    expect(tools.get('list_imports')!.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.get('import_leads')!.inputSchema.properties).toHaveProperty('confirm_token');
    await a.mcp.close();
  });

  it('answers studio_not_enabled without the Studio module', async () => {
    const a = await importTenant(env, { studio: false });
    const r = await a.rest('POST', `${a.base}/leads/import`, { rows: [row()] });
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('studio_not_enabled');
    await a.mcp.close();
  });
});

describe('mode preview', () => {
  it('counts each outcome with example reasons, stores nothing, issues no token, the same on both faces', async () => {
    const a = await importTenant(env);
    const dup = row();
    const rows = [row(), dup, { ...dup }, { full_name: 'Wait Ing', company: 'Acme' }, { company: 'Nobody Inc' }, { email: 'nope', name: 'X', company: 'Y' }];
    const viaRest = await a.rest('POST', `${a.base}/leads/import`, { mode: 'preview', rows });
    expect(viaRest.status, viaRest.text).toBe(200);
    expect(viaRest.json).toMatchObject({ mode: 'preview', rows: 6, import: null, counts: { added: 2, duplicates: 1, already_mailed: 0, waiting_for_email: 1, invalid: 2 } });
    expect(viaRest.json).not.toHaveProperty('confirm_token');
    const reasons = Object.fromEntries(viaRest.json.examples.map((e: any) => [e.index, e]));
    expect(reasons[2]).toMatchObject({ outcome: 'duplicate', reason: expect.stringContaining('row 1') });
    expect(reasons[4]).toMatchObject({ outcome: 'invalid', reason: expect.stringContaining('no email') });
    expect(reasons[5]).toMatchObject({ outcome: 'invalid', reason: expect.stringContaining('not an email address') });
    const viaTool = await a.tool('import_leads', { client_id: a.t.client.id, mode: 'preview', rows });
    expect(viaTool.isError, viaTool.text).toBe(false);
    expect(viaTool.json).toEqual(viaRest.json);
    // mode defaults to preview.
    expect((await a.rest('POST', `${a.base}/leads/import`, { rows })).json.mode).toBe('preview');
    expect(await a.pool()).toHaveLength(0);
    expect(await a.imports()).toHaveLength(0);
    await a.mcp.close();
  });

  it('refuses a confirm_token with mode preview', async () => {
    const a = await importTenant(env);
    const r = await a.rest('POST', `${a.base}/leads/import`, { mode: 'preview', rows: [row()], confirm_token: 'ct_x' });
    expect(r.status).toBe(400);
    expect(r.json.error.message).toMatch(/^confirm_token/);
    await a.mcp.close();
  });
});

describe('mode commit', () => {
  it('stores nothing on the first call and everything on the confirm: leads, provenance, DNS scan, ICP, the import and its audit row', async () => {
    const a = await importTenant(env);
    const [icp] = await env.services.db.insert(icps).values({ orgId: a.t.org.id, clientId: a.t.client.id, name: 'Sales leaders', rules: { titles: ['sales'] } }).returning();
    const rows: Record<string, unknown>[] = [row({ Phone: '+1 555 0100', 'Employee Count': 40 }), row({ title: 'CTO' }), { full_name: 'Wait Ing', company: 'Acme', website: 'acme-wait.com' }];
    const first = await a.rest('POST', `${a.base}/leads/import`, { mode: 'commit', rows, name: 'Clay list' });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ preview: { counts: { added: 2, waiting_for_email: 1 } }, confirm_token: expect.any(String), credits: 0 });
    expect(await a.pool()).toHaveLength(0);

    const done = await a.rest('POST', `${a.base}/leads/import`, { mode: 'commit', rows, name: 'Clay list', confirm_token: first.json.confirm_token });
    expect(done.status, done.text).toBe(200);
    expect(done.json).toMatchObject({
      import_id: expect.any(String),
      import: { name: 'Clay list', source: 'tool', added: 2, waiting_for_email: 1, duplicates: 0, already_mailed: 0, invalid: 0 },
      counts: { added: 2, waiting_for_email: 1 },
    });
    const lead = await a.lead(rows[0].email as string);
    expect(lead).toMatchObject({ status: 'new', firstName: rows[0].first_name, fullName: `${rows[0].first_name} Last`, domain: (rows[0].email as string).split('@')[1], icpId: icp.id, importId: done.json.import_id });
    expect(lead.custom).toEqual({ phone: '+1 555 0100', employee_count: 40 });
    expect(lead.provenance.email).toEqual({ source: 'tool', by: 'key:assistant', at: expect.any(String) });
    expect(lead.provenance['custom.phone'].source).toBe('tool');
    // The DNS scan (the simulation here) sets the mail type, marked as coming from DNS.
    expect(lead.mailType).toMatch(/^(google_workspace|microsoft_365|other|none)$/);
    expect(lead.provenance.mail_type).toMatchObject({ source: 'dns' });
    expect((await a.lead(rows[1].email as string)).icpId).toBeNull();
    const waiting = (await a.pool()).find((l) => l.email === null)!;
    expect(waiting).toMatchObject({ status: 'waiting_for_email', personKey: 'wait ing|acme', domain: 'acme-wait.com' });
    const audit = (await a.audit()).filter((e) => e.action === 'leads.imported');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: 'key:assistant', target: `client:${a.t.client.id}`, detail: { import_id: done.json.import_id, counts: { added: 2 } } });
    // A repeat of the used token changes nothing.
    const again = await a.rest('POST', `${a.base}/leads/import`, { mode: 'commit', rows, name: 'Clay list', confirm_token: first.json.confirm_token });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('confirm_token_used');
    expect(await a.pool()).toHaveLength(3);
    await a.mcp.close();
  });

  it('counts every outcome: duplicates in the call and the pool, the snapshot, never-mail by email, domain, company domain and website, own campaigns', async () => {
    const a = await importTenant(env);
    const inPool = row();
    const pushed = row();
    await a.commit({ rows: [inPool, pushed] });
    await env.services.db.update(poolLeads).set({ status: 'pushed' }).where(eq(poolLeads.email, pushed.email as string));
    const inSnapshot = row();
    await a.snapshot([inSnapshot.email as string]);
    await a.neverMail('email', 'blocked@listed.com');
    await a.neverMail('domain', 'blocked-domain.com');
    await a.neverMail('domain', 'blocked-co.com');
    await a.neverMail('domain', 'blocked-site.com');
    // The organization's own do-not-contact list (client_id null) counts too.
    await a.neverMail('email', 'optout@orgwide.com', null);
    const fresh = row();
    const rows = [
      fresh, // 0 added
      { ...fresh }, // 1 duplicate in this call
      inPool, // 2 duplicate in the pool
      pushed, // 3 own Studio campaign
      inSnapshot, // 4 sequencer snapshot
      row({ email: 'blocked@listed.com' }), // 5 never-mail email entry
      row({ email: 'anyone@sub.blocked-domain.com' }), // 6 domain entry covers subdomains
      row({ email: 'x@gmail.com', domain: 'blocked-co.com' }), // 7 company domain
      row({ email: 'y@gmail.com', website: 'https://www.blocked-site.com/team' }), // 8 website host
      row({ email: 'optout@orgwide.com' }), // 9 org-wide opt-out
      { name: 'No Mail', company: 'Blocked Co', domain: 'blocked-co.com' }, // 10 waiting row on a blocked domain
      { first_name: 'Will', last_name: 'Wait', company: 'Waiting GmbH' }, // 11 waiting
      { title: 'CEO' }, // 12 invalid
    ];
    const r = await a.commit({ rows });
    expect(r.status, r.text).toBe(200);
    expect(r.json.counts).toEqual({ added: 1, duplicates: 2, already_mailed: 8, waiting_for_email: 1, invalid: 1 });
    expect(r.preview.preview.counts).toEqual(r.json.counts);
    const byIndex = Object.fromEntries(r.preview.preview.examples.map((e: any) => [e.index, e.reason]));
    expect(byIndex[2]).toBe('already in the pool');
    expect(byIndex[3]).toBe('in an own Studio campaign');
    expect(byIndex[4]).toMatch(/sequencer snapshot/);
    expect(byIndex[5]).toBe('on the never-mail list (email blocked@listed.com)');
    expect(byIndex[6]).toBe('on the never-mail list (domain blocked-domain.com)');
    expect(byIndex[8]).toBe('on the never-mail list (domain blocked-site.com)');
    expect(byIndex[7]).toBe('on the never-mail list (domain blocked-co.com)');
    expect(byIndex[9]).toBe('on the never-mail list (email optout@orgwide.com)');
    expect(byIndex[10]).toBe('on the never-mail list (domain blocked-co.com)');
    expect(await a.pool()).toHaveLength(4);
    await a.mcp.close();
  });

  it('joins chunks by import_id: totals add up, a row from chunk 1 is a duplicate of this import, one entry in list_imports', async () => {
    const a = await importTenant(env);
    const rows1 = [row(), row()];
    const c1 = await a.commit({ rows: rows1, name: 'Big list' });
    const importId = c1.json.import_id;
    const c2 = await a.commit({ rows: [row(), rows1[0], { company: 'x' }], import_id: importId });
    expect(c2.status, c2.text).toBe(200);
    expect(c2.json.import_id).toBe(importId);
    expect(c2.json.counts).toEqual({ added: 1, duplicates: 1, already_mailed: 0, waiting_for_email: 0, invalid: 1 });
    expect(c2.json.import).toMatchObject({ id: importId, name: 'Big list', added: 3, duplicates: 1, invalid: 1 });
    expect(c2.preview.preview.examples.find((e: any) => e.index === 1).reason).toBe('already added earlier in this import');
    // A chunk's dry run shows the import's totals so far.
    const p = await a.rest('POST', `${a.base}/leads/import`, { rows: [row()], import_id: importId });
    expect(p.json.import).toMatchObject({ id: importId, added: 3 });

    const listed = await a.rest('GET', `${a.base}/imports`);
    expect(listed.status).toBe(200);
    expect(listed.json).toEqual({ imports: [expect.objectContaining({ id: importId, name: 'Big list', source: 'tool', day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), added: 3, duplicates: 1, already_mailed: 0, waiting_for_email: 0, invalid: 1 })], next_offset: null });
    const viaTool = await a.tool('list_imports', { client_id: a.t.client.id });
    expect(viaTool.json).toEqual(listed.json);
    await a.mcp.close();
  });

  it('names a new import after the day by default and lists imports newest first in pages', async () => {
    const a = await importTenant(env);
    const first = await a.commit({ rows: [row()] });
    const second = await a.commit({ rows: [row()] });
    expect(first.json.import.name).toMatch(/^import \d{4}-\d{2}-\d{2}$/);
    const page1 = await a.rest('GET', `${a.base}/imports?limit=1`);
    expect(page1.json.imports.map((i: any) => i.id)).toEqual([second.json.import_id]);
    expect(page1.json.next_offset).toBe(1);
    const page2 = await a.rest('GET', `${a.base}/imports?limit=1&offset=1`);
    expect(page2.json).toEqual({ imports: [expect.objectContaining({ id: first.json.import_id })], next_offset: null });
    await a.mcp.close();
  });

  it("refuses another client's import_id, a bridge import and an unknown one as not_found", async () => {
    const a = await importTenant(env);
    const other = await a.t.addClient('Client B');
    const c = await a.commit({ rows: [row()] }, other.id);
    const r = await a.rest('POST', `${a.base}/leads/import`, { mode: 'commit', rows: [row()], import_id: c.json.import_id });
    expect(r.status).toBe(404);
    expect(r.json.error.code).toBe('not_found');
    expect((await a.rest('POST', `${a.base}/leads/import`, { rows: [row()], import_id: randomUUID() })).status).toBe(404);
    const [bridge] = await env.services.db
      .insert(leadImports)
      .values({ orgId: a.t.org.id, clientId: a.t.client.id, name: 'clay 2026-01-01', source: 'bridge:clay', day: '2026-01-01', createdBy: 'bridge:clay' })
      .returning();
    expect((await a.rest('POST', `${a.base}/leads/import`, { rows: [row()], import_id: bridge.id })).status).toBe(404);
    await a.mcp.close();
  });

  it('adds the same row sent twice once: the second import counts it as a duplicate', async () => {
    const a = await importTenant(env);
    const same = row();
    const one = await a.commit({ rows: [same] });
    const two = await a.commit({ rows: [same] });
    expect(one.json.counts.added).toBe(1);
    expect(two.json.counts).toMatchObject({ added: 0, duplicates: 1 });
    expect(await a.pool()).toHaveLength(1);
    await a.mcp.close();
  });

  it('adds a row once when two imports store it at the same time, and never loses a counter', async () => {
    const a = await importTenant(env);
    const same = [row({ 'Seats Sold': 3 }), { full_name: 'Con Current', company: 'Race Inc', region_code: 'x' }];
    const ctx = { services: env.services, orgId: a.t.org.id, clientId: a.t.client.id, actor: 'key:assistant', now: env.clock.now() };
    const target = { kind: 'bridge' as const, toolName: 'clay' };
    // The rows in both orders: concurrent imports sharing rows must wait for each other, not deadlock.
    const orders = [same, [...same].reverse(), same];
    const results = await Promise.all(orders.map((rows) => env.services.db.transaction((tx) => importLeadRows(tx, ctx, rows, target))));
    expect(results.map((r) => r.counts.added).reduce((x, y) => x + y)).toBe(1);
    expect(results.map((r) => r.counts.waiting_for_email).reduce((x, y) => x + y)).toBe(1);
    expect(results.map((r) => r.counts.duplicates).reduce((x, y) => x + y)).toBe(4);
    expect(await a.pool()).toHaveLength(2);
    const [imp] = await a.imports();
    expect(imp).toMatchObject({ name: expect.stringMatching(/^clay \d{4}-\d{2}-\d{2}$/), source: 'bridge:clay', added: 1, waitingForEmail: 1, duplicates: 4 });
    await a.mcp.close();
  });

  it('answers preview_stale when another import took a row between preview and confirm', async () => {
    const a = await importTenant(env);
    const rows = [row(), row()];
    const first = await a.rest('POST', `${a.base}/leads/import`, { mode: 'commit', rows });
    await a.commit({ rows: [rows[1]] });
    const r = await a.rest('POST', `${a.base}/leads/import`, { mode: 'commit', rows, confirm_token: first.json.confirm_token });
    expect(r.status).toBe(409);
    expect(r.json.error.code).toBe('preview_stale');
    expect(r.json).toMatchObject({ preview: { counts: { added: 1, duplicates: 1 } }, confirm_token: expect.any(String) });
    expect(await a.pool()).toHaveLength(1);
    const confirmed = await a.rest('POST', `${a.base}/leads/import`, { mode: 'commit', rows, confirm_token: r.json.confirm_token });
    expect(confirmed.json.counts).toMatchObject({ added: 1, duplicates: 1 });
    await a.mcp.close();
  });

  it('commits through MCP as through REST', async () => {
    const a = await importTenant(env);
    const rows = [row()];
    const first = await a.tool('import_leads', { client_id: a.t.client.id, mode: 'commit', rows });
    expect(first.isError, first.text).toBe(false);
    const done = await a.tool('import_leads', { client_id: a.t.client.id, mode: 'commit', rows, confirm_token: first.json.confirm_token });
    expect(done.isError, done.text).toBe(false);
    expect(done.json).toMatchObject({ counts: { added: 1 }, import: { source: 'tool' } });
    expect((await a.lead(rows[0].email as string)).provenance.email.by).toBe('mcp:assistant');
    await a.mcp.close();
  });
});

describe('limits and bad input', () => {
  it('takes 500 rows in a body over 50 KB and refuses 501 naming rows', async () => {
    const a = await importTenant(env);
    const rows = Array.from({ length: 500 }, () => row({ note_text: 'x'.repeat(300) }));
    const ok = await a.rest('POST', `${a.base}/leads/import`, { rows });
    expect(ok.status, ok.text.slice(0, 300)).toBe(200);
    expect(ok.json.counts.added).toBe(500);
    const over = await a.rest('POST', `${a.base}/leads/import`, { rows: [...rows, row()] });
    expect(over.status).toBe(400);
    expect(over.json.error.message).toMatch(/rows/);
    const viaTool = await a.tool('import_leads', { client_id: a.t.client.id, rows: [...rows, row()] });
    expect(viaTool.isError).toBe(true);
    expect(viaTool.json.error.code).toBe('validation_error');
    await a.mcp.close();
  });

  it('refuses a body over 2 MB with 413', async () => {
    const a = await importTenant(env);
    const r = await a.rest('POST', `${a.base}/leads/import`, { rows: [row({ blob: 'x'.repeat(2 * 1024 * 1024) })] });
    expect(r.status).toBe(413);
    expect(r.json.error.code).toBe('payload_too_large');
    await a.mcp.close();
  });

  it.each([
    ['rows not objects', { rows: [1, 'a'] }, /rows/],
    ['no rows', { rows: [] }, /rows/],
    ['no rows field', {}, /rows/],
    ['an unknown mode', { rows: [{ email: 'a@b.com' }], mode: 'store' }, /mode/],
    ['an import_id that is no id', { rows: [{ email: 'a@b.com' }], import_id: 'abc' }, /import_id/],
    ['an unknown argument', { rows: [{ email: 'a@b.com' }], source: 'csv' }, /source|unrecognized/i],
  ])('refuses %s with a validation_error naming it, writing nothing', async (_name, body, pattern) => {
    const a = await importTenant(env);
    const r = await a.rest('POST', `${a.base}/leads/import`, body);
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('validation_error');
    expect(JSON.stringify(r.json.error)).toMatch(pattern);
    expect(await a.imports()).toHaveLength(0);
    await a.mcp.close();
  });

  it("answers not_found for another organization's client on both tools and both faces", async () => {
    const a = await importTenant(env);
    const b = await importTenant(env);
    const path = `/v1/agency/clients/${b.t.client.id}`;
    for (const body of [{ rows: [row()] }, { rows: [row()], mode: 'commit' }]) {
      const r = await a.rest('POST', `${path}/leads/import`, body);
      expect(r.status).toBe(404);
      expect(r.json.error.code).toBe('not_found');
    }
    expect((await a.rest('GET', `${path}/imports`)).status).toBe(404);
    const viaTool = await a.tool('import_leads', { client_id: b.t.client.id, rows: [row()] });
    expect(viaTool.json.error.code).toBe('not_found');
    expect((await a.tool('list_imports', { client_id: b.t.client.id })).json.error.code).toBe('not_found');
    expect(await b.pool()).toHaveLength(0);
    await a.mcp.close();
    await b.mcp.close();
  });
});
