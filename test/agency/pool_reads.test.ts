// Reading the lead pool: list_leads' filters and pages, "not contacted" with each of its sources, list_icps, and
// the admin routes that feed them (the sequencer snapshot, ICPs). Both faces give the same answer.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolLeads, sequencerSnapshotEmails, sequencerSnapshots } from '../../schema';
import { dayIn } from '../../lib/pool/day';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';
import { addPoolColumn, addPoolLeads, auditOf, studioTenant, type StudioTenant } from './pool_reads_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const emailsOf = (body: { leads: { email: string | null }[] }) => body.leads.map((l) => l.email);

async function sampledPool(a: StudioTenant) {
  return addPoolLeads(env, a.t, [
    { email: 'ann@alpha.com', country: 'Germany', volumeBand: 'high', title: 'Head of Sales', fullName: 'Ann Alpha', company: 'Alpha GmbH' },
    { email: 'bob@beta.com', country: 'germany', volumeBand: 'medium', emailStatus: 'risky', company: 'Beta' },
    { email: 'cy@gamma.com', country: 'Austria', volumeBand: 'low' },
    { email: 'di@delta.com', country: 'France', volumeBand: null, emailStatus: 'unknown' },
    { email: 'ed@eps.com', country: 'Germany', volumeBand: 'high', status: 'removed' },
    { email: null, fullName: 'Fay Fox', company: 'Fox Ltd', country: 'Germany', status: 'waiting_for_email', emailStatus: null, personKey: 'fay fox|fox ltd' },
    { email: 'gil_x@zeta.com', country: 'Spain', volumeBand: 'medium', title: 'CEO' },
  ]);
}

describe('list_leads', () => {
  it('pages the pool oldest first with next_offset, leaving removed leads out, the same on both faces', async () => {
    const a = await studioTenant(env);
    await sampledPool(a);
    const first = await a.read('list_leads', `${a.base}/leads`, { limit: 4 });
    expect(emailsOf(first)).toEqual(['ann@alpha.com', 'bob@beta.com', 'cy@gamma.com', 'di@delta.com']);
    expect(first.next_offset).toBe(4);
    const second = await a.read('list_leads', `${a.base}/leads`, { limit: 4, offset: first.next_offset });
    expect(emailsOf(second)).toEqual([null, 'gil_x@zeta.com']);
    expect(second.next_offset).toBeNull();
    // Exactly a page's worth left: the last page still says null.
    const exact = await a.read('list_leads', `${a.base}/leads`, { limit: 3, offset: 3 });
    expect(exact.leads).toHaveLength(3);
    expect(exact.next_offset).toBeNull();
    const lead = first.leads[0];
    expect(lead).toMatchObject({ email: 'ann@alpha.com', email_status: 'valid', country: 'Germany', volume_band: 'high', status: 'new', custom: {}, provenance: {} });
    expect(lead).not.toHaveProperty('contact_check');
    const removed = await a.read('list_leads', `${a.base}/leads`, { status: 'removed' });
    expect(emailsOf(removed)).toEqual(['ed@eps.com']);
  });

  it('filters by country (any case, one or several), volume_band_min, verified_only, status and q', async () => {
    const a = await studioTenant(env);
    await sampledPool(a);
    const list = async (args: Record<string, unknown>) => emailsOf(await a.read('list_leads', `${a.base}/leads`, args));
    expect(await list({ country: 'GERMANY' })).toEqual(['ann@alpha.com', 'bob@beta.com', null]);
    expect(await list({ country: ['austria', 'Spain'] })).toEqual(['cy@gamma.com', 'gil_x@zeta.com']);
    expect(await list({ volume_band_min: 'high' })).toEqual(['ann@alpha.com']);
    expect(await list({ volume_band_min: 'medium' })).toEqual(['ann@alpha.com', 'bob@beta.com', 'gil_x@zeta.com']);
    expect(await list({ volume_band_min: 'low' })).toEqual(['ann@alpha.com', 'bob@beta.com', 'cy@gamma.com', 'gil_x@zeta.com']);
    expect(await list({ verified_only: true })).toEqual(['ann@alpha.com', 'cy@gamma.com', 'gil_x@zeta.com']);
    expect(await list({ verified_only: true, country: 'germany', volume_band_min: 'medium' })).toEqual(['ann@alpha.com']);
    expect(await list({ status: 'waiting_for_email' })).toEqual([null]);
    expect(await list({ q: 'head of' })).toEqual(['ann@alpha.com']);
    expect(await list({ q: 'fay' })).toEqual([null]);
    expect(await list({ q: 'BETA' })).toEqual(['bob@beta.com']);
    // LIKE's wildcards are text here: "_" matches only an underscore.
    expect(await list({ q: 'l_x' })).toEqual(['gil_x@zeta.com']);
    expect(await list({ q: 'i_x' })).toEqual([]);
  });

  it('filters by ICP and counts each ICP in list_icps; an ICP of another client is not_found', async () => {
    const a = await studioTenant(env);
    const created = await a.t.admin('POST', `/admin/v1/clients/${a.t.client.id}/icps`, { name: 'DACH sales', rules: { countries: ['Germany', 'Austria'], titles: ['sales'] } });
    expect(created.status, created.text).toBe(201);
    const icp = created.json.icp;
    expect(icp).toMatchObject({ name: 'DACH sales', rules: { countries: ['Germany', 'Austria'], titles: ['sales'] } });
    const other = await a.t.admin('POST', `/admin/v1/clients/${a.t.client.id}/icps`, { name: 'Big senders', rules: { volume_bands: ['high'] } });
    await addPoolLeads(env, a.t, [
      { email: 'a@one.com', icpId: icp.id },
      { email: 'b@two.com', icpId: icp.id },
      { email: 'c@three.com', icpId: icp.id, status: 'removed' },
      { email: 'd@four.com' },
    ]);
    const listed = await a.read('list_icps', `${a.base}/icps`);
    expect(listed.icps.map((i: any) => [i.name, i.leads])).toEqual([
      ['DACH sales', 2],
      ['Big senders', 0],
    ]);
    expect(listed.icps[1].id).toBe(other.json.icp.id);
    expect(emailsOf(await a.read('list_leads', `${a.base}/leads`, { icp_id: icp.id }))).toEqual(['a@one.com', 'b@two.com']);

    const clientB = await a.t.addClient('Client B');
    const icpB = await a.t.admin('POST', `/admin/v1/clients/${clientB.id}/icps`, { name: 'DACH sales', rules: { countries: ['Germany'] } });
    expect(icpB.status).toBe(201);
    const r = await a.rest('GET', `${a.base}/leads?icp_id=${icpB.json.icp.id}`);
    expect([r.status, r.json.error.code]).toEqual([404, 'not_found']);
    const tr = await a.tool('list_leads', { client_id: a.t.client.id, icp_id: icpB.json.icp.id });
    expect(tr.isError).toBe(true);
    expect(tr.json.error.code).toBe('not_found');
  });

  it('narrows custom to the columns asked for, refusing more than 12 keys and naming an unknown one', async () => {
    const a = await studioTenant(env);
    await addPoolColumn(env, a.t, 'phone');
    await addPoolColumn(env, a.t, 'tech');
    await addPoolLeads(env, a.t, [{ email: 'a@one.com', custom: { phone: '+49 1', tech: 'hubspot', seats: 12 } }]);
    const all = await a.read('list_leads', `${a.base}/leads`);
    expect(all.leads[0].custom).toEqual({ phone: '+49 1', tech: 'hubspot', seats: 12 });
    const narrowed = await a.read('list_leads', `${a.base}/leads`, { columns: ['phone'] });
    expect(narrowed.leads[0].custom).toEqual({ phone: '+49 1' });
    // A comma list in a query string reads the same; a column the lead has no value in is null.
    await addPoolColumn(env, a.t, 'empty_col');
    const comma = await a.rest('GET', `${a.base}/leads?columns=tech,empty_col`);
    expect(comma.json.leads[0].custom).toEqual({ tech: 'hubspot', empty_col: null });

    const unknown = await a.rest('GET', `${a.base}/leads?columns=phone&columns=nope`);
    expect([unknown.status, unknown.json.error.code]).toEqual([400, 'validation_error']);
    expect(unknown.json.error.message).toContain('"nope"');
    const thirteen = Array.from({ length: 13 }, (_, i) => `c${i}`);
    const tooMany = await a.tool('list_leads', { client_id: a.t.client.id, columns: thirteen });
    expect(tooMany.isError).toBe(true);
    expect(tooMany.json.error.code).toBe('validation_error');
    expect(tooMany.json.error.message).toContain('columns');
    const tooManyRest = await a.rest('GET', `${a.base}/leads?columns=${thirteen.join(',')}`);
    expect([tooManyRest.status, tooManyRest.json.error.code]).toEqual([400, 'validation_error']);
  });

  it('refuses a page size outside 1..200 and a malformed filter, naming the argument', async () => {
    const a = await studioTenant(env);
    for (const q of ['limit=201', 'limit=0', 'offset=-1', 'volume_band_min=huge', 'not_contacted=yes', 'status=gone', 'icp_id=abc', 'unknown=1']) {
      const r = await a.rest('GET', `${a.base}/leads?${q}`);
      expect([r.status, r.json.error.code], q).toEqual([400, 'validation_error']);
      expect(JSON.stringify(r.json.error), q).toContain(q.split('=')[0]);
    }
    const ok = await a.read('list_leads', `${a.base}/leads`, { limit: 200 });
    expect(ok.next_offset).toBeNull();
  });
});

describe('not contacted', () => {
  it('leaves out leads in a batch or campaign, replied (core leads of the organization) or in the latest snapshot, and names each source', async () => {
    const a = await studioTenant(env);
    const [fresh, , , replied, inSnapshot, , waiting, otherOrgReply] = await addPoolLeads(env, a.t, [
      { email: 'fresh@alpha.com' },
      { email: 'batched@alpha.com', status: 'in_batch' },
      { email: 'pushed@alpha.com', status: 'pushed' },
      { email: 'answered@alpha.com' },
      { email: 'busy@alpha.com' },
      { email: 'gone@alpha.com', status: 'removed' },
      { email: null, fullName: 'Wai Ting', company: 'Wait Co', status: 'waiting_for_email', personKey: 'wai ting|wait co' },
      { email: 'elsewhere@alpha.com' },
      { email: 'statusreplied@alpha.com', status: 'replied' },
    ]);
    await a.t.reply({ from_email: 'Answered@Alpha.com', body: 'Not now, thanks.' });
    // A reply in another organization says nothing about this one.
    const stranger = await newTenant(env);
    await stranger.reply({ from_email: 'elsewhere@alpha.com' });

    const before = await a.read('list_leads', `${a.base}/leads`, { not_contacted: true });
    expect(emailsOf(before)).toEqual([fresh.email, inSnapshot.email, waiting.email, otherOrgReply.email]);
    expect(emailsOf(before)).not.toContain(replied.email);
    for (const l of before.leads) expect(l.contact_check).toEqual({ pool: true, studio_campaigns: true, replies: true, sequencer_snapshot: { checked: false, day: null } });

    const put = await a.t.admin('PUT', `/admin/v1/clients/${a.t.client.id}/sequencer-snapshot`, { day: '2025-06-02', emails: [' BUSY@alpha.com', 'busy@alpha.com', 'other@beta.com'] });
    expect(put.status, put.text).toBe(200);
    expect(put.json).toEqual({ snapshot: { day: '2025-06-02', count: 2 } });
    const after = await a.read('list_leads', `${a.base}/leads`, { not_contacted: 'true' });
    expect(emailsOf(after)).toEqual([fresh.email, waiting.email, otherOrgReply.email]);
    for (const l of after.leads) expect(l.contact_check.sequencer_snapshot).toEqual({ checked: true, day: '2025-06-02' });

    // Only the latest snapshot counts: the next one replaces it whole.
    await a.t.admin('PUT', `/admin/v1/clients/${a.t.client.id}/sequencer-snapshot`, { day: '2025-06-03', emails: ['fresh@alpha.com'] });
    const latest = await a.read('list_leads', `${a.base}/leads`, { not_contacted: true });
    expect(emailsOf(latest)).toEqual([inSnapshot.email, waiting.email, otherOrgReply.email]);
    expect(latest.leads[0].contact_check.sequencer_snapshot.day).toBe('2025-06-03');
    // not_contacted: false is no filter at all.
    const all = await a.read('list_leads', `${a.base}/leads`, { not_contacted: false });
    expect(all.leads).toHaveLength(8);
    expect(all.leads[0]).not.toHaveProperty('contact_check');
  });

  it("reads only this client's snapshot", async () => {
    const a = await studioTenant(env);
    const clientB = await a.t.addClient('Client B');
    await addPoolLeads(env, a.t, [{ email: 'shared@alpha.com' }]);
    await a.t.admin('PUT', `/admin/v1/clients/${clientB.id}/sequencer-snapshot`, { emails: ['shared@alpha.com'] });
    const r = await a.read('list_leads', `${a.base}/leads`, { not_contacted: true });
    expect(emailsOf(r)).toEqual(['shared@alpha.com']);
    expect(r.leads[0].contact_check.sequencer_snapshot).toEqual({ checked: false, day: null });
  });
});

describe('admin: sequencer snapshot and ICPs', () => {
  it("defaults the snapshot's day to today in the organization's timezone, stores it whole and audits it as admin", async () => {
    const a = await studioTenant(env);
    const tz = await a.t.admin('PATCH', `/admin/v1/orgs/${a.t.org.id}`, { timezone: 'Pacific/Kiritimati' });
    expect(tz.status, tz.text).toBe(200);
    const r = await a.t.admin('PUT', `/admin/v1/clients/${a.t.client.id}/sequencer-snapshot`, { emails: ['x@a.com', 'Y@B.com'] });
    expect(r.status, r.text).toBe(200);
    expect(r.json.snapshot).toEqual({ day: dayIn('Pacific/Kiritimati', env.clock.now()), count: 2 });
    const stored = await env.services.db.select().from(sequencerSnapshotEmails).where(eq(sequencerSnapshotEmails.clientId, a.t.client.id));
    expect(stored.map((s) => s.email).sort()).toEqual(['x@a.com', 'y@b.com']);
    const empty = await a.t.admin('PUT', `/admin/v1/clients/${a.t.client.id}/sequencer-snapshot`, { day: '2025-01-01', emails: [] });
    expect(empty.json.snapshot).toEqual({ day: '2025-01-01', count: 0 });
    expect(await env.services.db.select().from(sequencerSnapshotEmails).where(eq(sequencerSnapshotEmails.clientId, a.t.client.id))).toEqual([]);
    const audit = (await auditOf(env, a.t)).filter((e) => e.action === 'sequencer_snapshot.replaced');
    expect(audit.map((e) => [e.actor, e.target, e.detail])).toEqual([
      ['admin', `client:${a.t.client.id}`, { day: r.json.snapshot.day, count: 2 }],
      ['admin', `client:${a.t.client.id}`, { day: '2025-01-01', count: 0 }],
    ]);
  });

  it('takes a daily snapshot of 60,000 addresses (about 1.6 MB, over the core 50 KB body limit) in one request', async () => {
    const a = await studioTenant(env);
    const emails = Array.from({ length: 60_000 }, (_, i) => `prospect.number${i}@company-${i % 997}.example.com`);
    const r = await a.t.admin('PUT', `/admin/v1/clients/${a.t.client.id}/sequencer-snapshot`, { day: '2025-06-02', emails });
    expect(r.status, r.text.slice(0, 200)).toBe(200);
    expect(r.json.snapshot).toEqual({ day: '2025-06-02', count: 60_000 });
  });

  it('replaces concurrently without a mix or an error: the last committed snapshot is the whole state', async () => {
    const a = await studioTenant(env);
    const lists = Array.from({ length: 4 }, (_, k) => Array.from({ length: 50 }, (_, i) => `p${i}-${k % 2}@shared.com`));
    const answers = await Promise.all(lists.map((emails, k) => a.t.admin('PUT', `/admin/v1/clients/${a.t.client.id}/sequencer-snapshot`, { day: `2025-06-0${k + 1}`, emails })));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const stored = (await env.services.db.select().from(sequencerSnapshotEmails).where(eq(sequencerSnapshotEmails.clientId, a.t.client.id))).map((s) => s.email).sort();
    const [snap] = await env.services.db.select().from(sequencerSnapshots).where(eq(sequencerSnapshots.clientId, a.t.client.id));
    const k = Number(snap.day.slice(-1)) - 1;
    expect(stored).toEqual([...lists[k]].sort());
    expect(snap.count).toBe(50);
  });

  it('refuses a malformed snapshot whole (naming the address), an unknown client and a bad day; writes nothing', async () => {
    const a = await studioTenant(env);
    await a.t.admin('PUT', `/admin/v1/clients/${a.t.client.id}/sequencer-snapshot`, { day: '2025-06-01', emails: ['keep@a.com'] });
    const bad = await a.t.admin('PUT', `/admin/v1/clients/${a.t.client.id}/sequencer-snapshot`, { emails: ['ok@a.com', 'not an address'] });
    expect([bad.status, bad.json.error.code]).toEqual([400, 'validation_error']);
    expect(bad.json.error.message).toContain('emails[1]');
    for (const body of [{ day: '2025-02-30', emails: [] }, { day: 'today', emails: [] }, { emails: 'a@b.com' }, {}, { emails: [], extra: 1 }]) {
      const r = await a.t.admin('PUT', `/admin/v1/clients/${a.t.client.id}/sequencer-snapshot`, body);
      expect([r.status, r.json.error.code], JSON.stringify(body)).toEqual([400, 'validation_error']);
    }
    const missing = await a.t.admin('PUT', `/admin/v1/clients/00000000-0000-4000-8000-000000000000/sequencer-snapshot`, { emails: [] });
    expect([missing.status, missing.json.error.code]).toEqual([404, 'not_found']);
    const [snap] = await env.services.db.select().from(sequencerSnapshots).where(eq(sequencerSnapshots.clientId, a.t.client.id));
    expect(snap).toMatchObject({ day: '2025-06-01', count: 1 });
    const unauth = await a.t.admin('PUT', `/admin/v1/clients/${a.t.client.id}/sequencer-snapshot`, { emails: [] }, 'wrong-token');
    expect(unauth.status).toBe(401);
  });

  it('a new ICP takes the pool leads no ICP holds yet that meet its rules, leaving removed leads and older ICPs alone', async () => {
    const a = await studioTenant(env);
    await addPoolLeads(env, a.t, [
      { email: 'a@one.com', country: 'Germany', title: 'VP Sales' },
      { email: 'b@two.com', country: 'germany', title: 'Sales lead', volumeBand: 'high' },
      { email: 'c@three.com', country: 'Germany', title: 'Sales', status: 'removed' },
      { email: 'd@four.com', country: 'France', title: 'Sales' },
      { email: 'e@five.com', country: 'Germany', title: 'CTO' },
    ]);
    const first = await a.t.admin('POST', `/admin/v1/clients/${a.t.client.id}/icps`, { name: 'Big', rules: { volume_bands: ['high'] } });
    expect(first.json.icp.leads).toBe(1);
    const second = await a.t.admin('POST', `/admin/v1/clients/${a.t.client.id}/icps`, { name: 'German sales', rules: { countries: ['Germany'], titles: ['sales'] } });
    expect(second.status, second.text).toBe(201);
    expect(second.json.icp.leads).toBe(1);
    expect(emailsOf(await a.read('list_leads', `${a.base}/leads`, { icp_id: second.json.icp.id }))).toEqual(['a@one.com']);
    expect(emailsOf(await a.read('list_leads', `${a.base}/leads`, { icp_id: first.json.icp.id }))).toEqual(['b@two.com']);
    const listed = await a.read('list_icps', `${a.base}/icps`);
    expect(listed.icps.map((i: any) => [i.name, i.leads])).toEqual([
      ['Big', 1],
      ['German sales', 1],
    ]);
  });

  it('creates ICPs (201, audited as admin), refuses a second of the same name with the existing one, and empty or unknown rules', async () => {
    const a = await studioTenant(env);
    const path = `/admin/v1/clients/${a.t.client.id}/icps`;
    const r = await a.t.admin('POST', path, { name: ' Nordics ', rules: { countries: ['Sweden'], volume_bands: ['high', 'medium'], keywords: ['saas'] } });
    expect(r.status, r.text).toBe(201);
    expect(r.json.icp).toMatchObject({ name: 'Nordics', rules: { countries: ['Sweden'], volume_bands: ['high', 'medium'], keywords: ['saas'] } });
    const again = await a.t.admin('POST', path, { name: 'Nordics', rules: { countries: ['Norway'] } });
    expect([again.status, again.json.error.code]).toEqual([409, 'conflict']);
    expect(again.json.icp.id).toBe(r.json.icp.id);
    for (const body of [{ name: 'x', rules: {} }, { name: 'x', rules: { countries: [] } }, { name: 'x', rules: { colours: ['red'] } }, { name: '', rules: { countries: ['DE'] } }, { name: 'x', rules: { volume_bands: ['huge'] } }]) {
      const bad = await a.t.admin('POST', path, body);
      expect([bad.status, bad.json.error.code], JSON.stringify(body)).toEqual([400, 'validation_error']);
    }
    const missing = await a.t.admin('POST', `/admin/v1/clients/00000000-0000-4000-8000-000000000000/icps`, { name: 'x', rules: { countries: ['DE'] } });
    expect(missing.status).toBe(404);
    const audit = (await auditOf(env, a.t)).filter((e) => e.action === 'icp.created');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: 'admin', target: `icp:${r.json.icp.id}` });
  });
});

describe('tenant isolation and the Studio gate', () => {
  it("answers not_found for another organization's client on every pool read, and studio_not_enabled without the module", async () => {
    const a = await studioTenant(env);
    const b = await studioTenant(env);
    await addPoolLeads(env, b.t, [{ email: 'secret@b.com' }]);
    for (const [name, tail] of [
      ['list_leads', 'leads'],
      ['list_icps', 'icps'],
      ['list_segments', 'segments'],
      ['segment_results', 'segments/results'],
      ['list_suppressions', 'suppressions'],
    ]) {
      const r = await a.rest('GET', `${b.base}/${tail}`);
      expect([r.status, r.json.error.code], name).toEqual([404, 'not_found']);
      const tr = await a.tool(name, { client_id: b.t.client.id });
      expect(tr.json.error.code, name).toBe('not_found');
    }
    const noStudio = await studioTenant(env, { studio: false });
    const r = await noStudio.rest('GET', `${noStudio.base}/leads`);
    expect([r.status, r.json.error.code]).toEqual([403, 'studio_not_enabled']);
    const tools = (await noStudio.mcp.listTools()).tools.map((x) => x.name);
    expect(tools).not.toContain('list_leads');
    expect(tools).not.toContain('import_suppressions');
    const listed = (await a.mcp.listTools()).tools;
    const byName = new Map(listed.map((x) => [x.name, x]));
    for (const name of ['list_leads', 'list_icps', 'list_segments', 'segment_results', 'list_suppressions']) expect(byName.get(name)!.annotations).toMatchObject({ readOnlyHint: true });
    for (const name of ['save_segment', 'preview_suppressions_import', 'import_suppressions'])
      expect(byName.get(name)!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    // The pool of B was never touched.
    const rows = await env.services.db.select().from(poolLeads).where(and(eq(poolLeads.orgId, b.t.org.id)));
    expect(rows).toHaveLength(1);
  });
});
