// The client's never-mail list through the agency tools: list_suppressions, preview_suppressions_import (stores
// nothing) and import_suppressions (counts, idempotence, 20,000 entries per call), tenant isolation, both faces,
// and that what is imported is what the never-mail check blocks.
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suppressions } from '../../schema';
import { findNeverMail } from '../../lib/pool/never_mail';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { auditOf, studioTenant, type StudioTenant } from './pool_reads_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const entriesOf = (a: StudioTenant, clientId = a.t.client.id) =>
  env.services.db.select().from(suppressions).where(and(eq(suppressions.orgId, a.t.org.id), eq(suppressions.clientId, clientId)));

const SAMPLE = [
  'Ann@Alpha.com',
  'ann@alpha.com ',
  'beta.com',
  '@Gamma.io',
  'https://www.delta.org/about',
  'www.eps.net',
  'not an entry',
  'co.uk',
  'x@',
  '',
  'sub.beta.com',
];

describe('preview_suppressions_import', () => {
  it('counts what an import would do, the same on both faces, and stores nothing', async () => {
    const a = await studioTenant(env);
    await a.rest('POST', `${a.base}/suppressions/import`, { entries: ['beta.com'] });
    const viaRest = await a.rest('POST', `${a.base}/suppressions/preview`, { entries: SAMPLE });
    expect(viaRest.status, viaRest.text).toBe(200);
    expect(viaRest.json).toMatchObject({
      received: 11,
      valid: 6,
      emails: 1,
      domains: 5,
      duplicates_in_input: 1,
      already_listed: 1,
      would_add: 5,
      invalid_count: 4,
    });
    expect(viaRest.json.invalid.map((i: any) => [i.index, i.entry])).toEqual([
      [6, 'not an entry'],
      [7, 'co.uk'],
      [8, 'x@'],
      [9, ''],
    ]);
    expect(viaRest.json.invalid[1].reason).toContain('public suffix');
    const viaTool = await a.tool('preview_suppressions_import', { client_id: a.t.client.id, entries: SAMPLE });
    expect(viaTool.json).toEqual(viaRest.json);
    expect((await entriesOf(a)).map((e) => e.value)).toEqual(['beta.com']);
    expect((await auditOf(env, a.t)).filter((e) => e.action === 'suppressions.imported')).toHaveLength(1);
  });
});

describe('import_suppressions', () => {
  it('adds normalised, deduplicated entries with one audit row; the same entries again add nothing', async () => {
    const a = await studioTenant(env);
    const first = await a.rest('POST', `${a.base}/suppressions/import`, { entries: SAMPLE, reason: 'customer list' });
    expect(first.status, first.text).toBe(200);
    expect(first.json).toMatchObject({ received: 11, valid: 6, emails: 1, domains: 5, duplicates_in_input: 1, already_listed: 0, invalid_count: 4, added: 6 });
    const stored = await entriesOf(a);
    expect(stored.map((e) => `${e.kind}:${e.value}`).sort()).toEqual([
      'domain:beta.com',
      'domain:delta.org',
      'domain:eps.net',
      'domain:gamma.io',
      'domain:sub.beta.com',
      'email:ann@alpha.com',
    ]);
    for (const e of stored) expect(e).toMatchObject({ reason: 'import', detail: 'customer list', createdBy: expect.stringMatching(/^key:/) });

    const again = await a.tool('import_suppressions', { client_id: a.t.client.id, entries: SAMPLE });
    expect(again.isError, again.text).toBe(false);
    expect(again.json).toMatchObject({ valid: 6, already_listed: 6, added: 0 });
    expect(await entriesOf(a)).toHaveLength(6);
    const audit = (await auditOf(env, a.t)).filter((e) => e.action === 'suppressions.imported');
    expect(audit.map((e) => [e.actor.split(':')[0], e.target, (e.detail as any).added])).toEqual([
      ['key', `client:${a.t.client.id}`, 6],
      ['mcp', `client:${a.t.client.id}`, 0],
    ]);

    // What was imported is what the never-mail check blocks, for this client only.
    const leads = [{ email: 'ANN@alpha.com' }, { email: 'x@mail.beta.com' }, { email: 'y@other.com', website: 'https://delta.org' }, { email: 'z@free.com', domain: 'eps.net' }, { email: 'ok@alpha.com' }];
    const blocked = await findNeverMail(env.services.db, { orgId: a.t.org.id, clientId: a.t.client.id, leads });
    expect([...blocked.keys()].sort()).toEqual([0, 1, 2, 3]);
    const clientB = await a.t.addClient('Client B');
    expect((await findNeverMail(env.services.db, { orgId: a.t.org.id, clientId: clientB.id, leads })).size).toBe(0);
  });

  it('refuses a call without one valid entry (naming the first), an empty list and 20,001 entries; writes nothing', async () => {
    const a = await studioTenant(env);
    const none = await a.rest('POST', `${a.base}/suppressions/import`, { entries: ['nope', 'com'] });
    expect([none.status, none.json.error.code]).toEqual([400, 'validation_error']);
    expect(none.json.error.message).toContain('entries[0] "nope"');
    expect(none.json.invalid_count).toBe(2);
    const empty = await a.rest('POST', `${a.base}/suppressions/import`, { entries: [] });
    expect([empty.status, empty.json.error.code]).toEqual([400, 'validation_error']);
    const missing = await a.rest('POST', `${a.base}/suppressions/preview`, {});
    expect([missing.status, missing.json.error.code]).toEqual([400, 'validation_error']);
    // 20,001 short entries fit the tool server's 2 MB body; the count is what is refused.
    const over = Array.from({ length: 20_001 }, (_, i) => `d${i}.com`);
    for (const name of ['import_suppressions', 'preview_suppressions_import']) {
      const r = await a.tool(name, { client_id: a.t.client.id, entries: over });
      expect(r.isError, name).toBe(true);
      expect(r.json.error.code, name).toBe('validation_error');
      expect(r.json.error.message, name).toContain('entries');
    }
    // The REST routes take 2 MB bodies too (agency-operator.md §1), so the count is what REST refuses as well.
    const overRest = await a.rest('POST', `${a.base}/suppressions/import`, { entries: over });
    expect([overRest.status, overRest.json.error.code]).toEqual([400, 'validation_error']);
    expect(await entriesOf(a)).toEqual([]);
    expect((await auditOf(env, a.t)).filter((e) => e.action === 'suppressions.imported')).toEqual([]);
  });

  it('imports 20,000 entries in one call', async () => {
    const a = await studioTenant(env);
    const entries = Array.from({ length: 20_000 }, (_, i) => (i % 2 ? `p${i}@bulk.com` : `bulk${i}.com`));
    const r = await a.tool('import_suppressions', { client_id: a.t.client.id, entries });
    expect(r.isError, r.text.slice(0, 300)).toBe(false);
    expect(r.json).toMatchObject({ received: 20_000, valid: 20_000, emails: 10_000, domains: 10_000, added: 20_000, invalid_count: 0 });
    expect(await entriesOf(a)).toHaveLength(20_000);
    const preview = await a.rest('POST', `${a.base}/suppressions/preview`, { entries });
    expect(preview.status, preview.text.slice(0, 200)).toBe(200);
    expect(preview.json).toMatchObject({ already_listed: 20_000, would_add: 0 });
  }, 120_000);
});

describe('list_suppressions', () => {
  it("lists this client's entries newest first with q and pages, never another client's or the organization's opt-outs", async () => {
    const a = await studioTenant(env);
    await a.rest('POST', `${a.base}/suppressions/import`, { entries: ['one@alpha.com', 'alpha.net', 'beta.com'] });
    env.clock.advance(1000);
    await a.rest('POST', `${a.base}/suppressions/import`, { entries: ['newest@alpha.com'], reason: 'asked by phone' });
    const clientB = await a.t.addClient('Client B');
    await a.rest('POST', `/v1/agency/clients/${clientB.id}/suppressions/import`, { entries: ['hidden@alpha.com'] });
    await env.services.db.insert(suppressions).values({ orgId: a.t.org.id, clientId: null, kind: 'email', value: 'optout@alpha.com', reason: 'opt_out', createdBy: 'system' });

    const all = await a.read('list_suppressions', `${a.base}/suppressions`);
    expect(all.suppressions.map((s: any) => s.value)[0]).toBe('newest@alpha.com');
    expect(all.suppressions.map((s: any) => s.value).sort()).toEqual(['alpha.net', 'beta.com', 'newest@alpha.com', 'one@alpha.com']);
    expect(all.suppressions[0]).toMatchObject({ kind: 'email', reason: 'import', detail: 'asked by phone', created_by: expect.stringMatching(/^key:/) });
    expect(all.next_offset).toBeNull();

    const q = await a.read('list_suppressions', `${a.base}/suppressions`, { q: 'ALPHA' });
    expect(q.suppressions.map((s: any) => s.value).sort()).toEqual(['alpha.net', 'newest@alpha.com', 'one@alpha.com']);
    const page = await a.read('list_suppressions', `${a.base}/suppressions`, { limit: 3 });
    expect(page.suppressions).toHaveLength(3);
    expect(page.next_offset).toBe(3);
    const rest = await a.read('list_suppressions', `${a.base}/suppressions`, { limit: 3, offset: 3 });
    expect(rest.suppressions).toHaveLength(1);
    expect(rest.next_offset).toBeNull();
    expect(new Set([...page.suppressions, ...rest.suppressions].map((s: any) => s.id)).size).toBe(4);
    // "%" is text, not a wildcard.
    expect((await a.read('list_suppressions', `${a.base}/suppressions`, { q: '%' })).suppressions).toEqual([]);
    expect(await env.services.db.select().from(suppressions).where(and(eq(suppressions.orgId, a.t.org.id), isNull(suppressions.clientId)))).toHaveLength(1);
  });

  it("answers not_found for another organization's client on every suppression tool, and writes nothing there", async () => {
    const a = await studioTenant(env);
    const b = await studioTenant(env);
    for (const [method, tail, body] of [
      ['GET', 'suppressions', undefined],
      ['POST', 'suppressions/preview', { entries: ['a.com'] }],
      ['POST', 'suppressions/import', { entries: ['a.com'] }],
    ] as const) {
      const r = await a.rest(method, `${b.base}/${tail}`, body);
      expect([r.status, r.json.error.code], tail).toEqual([404, 'not_found']);
    }
    const tr = await a.tool('import_suppressions', { client_id: b.t.client.id, entries: ['a.com'] });
    expect(tr.json.error.code).toBe('not_found');
    expect(await entriesOf(b)).toEqual([]);
  });
});
