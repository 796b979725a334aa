// allocate_batch, batch_status, approve_batch and skip_batch on both faces: what a batch may take from the pool and
// why the rest is left out, one open batch per client, the two-step confirm (a preview writes nothing, stale and
// used tokens), concurrent confirms never sharing a lead, tenant isolation, approval that never pushes, and skip
// handing the leads back to the pool.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batches, batchLeads, batchWrites, segments, simSequencerCampaigns, studioCampaigns, suppressions } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { addPoolLeads, allocated, auditActions, confirmRest, confirmTool, mailOf, poolStatuses, studioTenant, writeMails, type StudioTenant } from './batch_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const batchesOf = (a: StudioTenant) => env.services.db.select().from(batches).where(eq(batches.clientId, a.t.client.id));
const leadsOf = (batchId: string) => env.services.db.select().from(batchLeads).where(eq(batchLeads.batchId, batchId)).orderBy(batchLeads.position);

describe('allocate_batch', () => {
  it('leaves out never-mail, contacted, snapshot, email-less, batched and rejected leads, counting each; the preview writes nothing', async () => {
    const a = await studioTenant(env);
    const db = env.services.db;
    const c = a.t.client.id;
    const [ok1, ok2, noEmail, blockedEmail, blockedDomain, blockedSite, inSnapshot, pushed, replied, inPushing, rejectedBefore, ok3, heldBack] = await addPoolLeads(env, a.t, [
      { email: 'ok1@alpha.example' },
      { email: 'ok2@beta.example' },
      { email: null, firstName: 'No', lastName: 'Mail', company: 'Nomail Co', personKey: `no mail|nomail co ${Math.random()}`, status: 'waiting_for_email' },
      { email: 'blocked@gamma.example' },
      { email: 'someone@sales.blocked-domain.example' },
      { email: 'x@delta.example', website: 'https://www.blocked-site.example/about' },
      { email: 'snap@epsilon.example' },
      { email: 'pushed@zeta.example', status: 'pushed' },
      { email: 'replied@eta.example' },
      { email: 'busy@theta.example', status: 'in_batch' },
      { email: 'nope@iota.example' },
      { email: 'ok3@kappa.example' },
      { email: 'held@lambda.example' },
    ]);
    await db.insert(suppressions).values([
      { orgId: a.t.org.id, clientId: c, kind: 'email', value: 'blocked@gamma.example', reason: 'manual', createdBy: 'test' },
      { orgId: a.t.org.id, clientId: c, kind: 'domain', value: 'blocked-domain.example', reason: 'manual', createdBy: 'test' },
      { orgId: a.t.org.id, clientId: null, kind: 'domain', value: 'blocked-site.example', reason: 'manual', createdBy: 'test' },
    ]);
    const snap = await a.t.admin('PUT', `/admin/v1/clients/${c}/sequencer-snapshot`, { emails: ['snap@epsilon.example'] });
    expect(snap.status, snap.text).toBe(200);
    await a.t.reply({ from_email: 'replied@eta.example' });
    // A batch being pushed holds one lead; a skipped batch once had a lead a person rejected; a pushed batch held one
    // back (it was on the never-mail list then, and is back in the pool as new).
    const [pushed_] = await db.insert(batches).values({ orgId: a.t.org.id, clientId: c, status: 'pushed', size: 1, createdBy: 'test' }).returning();
    const [pushing] = await db.insert(batches).values({ orgId: a.t.org.id, clientId: c, status: 'pushing', size: 1, createdBy: 'test' }).returning();
    const [skipped] = await db.insert(batches).values({ orgId: a.t.org.id, clientId: c, status: 'skipped', size: 1, createdBy: 'test' }).returning();
    await db.insert(batchLeads).values([
      { batchId: pushing.id, poolLeadId: inPushing.id, orgId: a.t.org.id, clientId: c, position: 1 },
      { batchId: skipped.id, poolLeadId: rejectedBefore.id, orgId: a.t.org.id, clientId: c, position: 1, review: 'rejected', rejectReason: 'not a fit' },
      { batchId: pushed_.id, poolLeadId: heldBack.id, orgId: a.t.org.id, clientId: c, position: 1, review: 'approved' },
    ]);
    const before = await auditActions(env, a.t.org.id);

    const r = await a.rest('POST', `${a.base}/batch/allocate`, { size: 2 });
    expect(r.status, r.text).toBe(200);
    expect(r.json.confirm_token, r.text).toEqual(expect.any(String));
    expect(r.json.credits).toBe(0);
    expect(r.json.preview).toMatchObject({
      leads: 2,
      size: 2,
      available: 4,
      excluded: { no_email: 1, in_batch: 1, rejected: 1, sequencer_snapshot: 1, contacted: 2, never_mail: 3 },
      segment_id: null,
      filter: {},
    });
    expect(r.json.preview.sample.map((l: any) => l.id)).toEqual([ok1.id, ok2.id]);
    // The preview stored nothing.
    expect((await batchesOf(a)).map((b) => b.status).sort()).toEqual(['pushed', 'pushing', 'skipped']);
    expect(await poolStatuses(env, [ok1.id, ok2.id, ok3.id])).toEqual(['new', 'new', 'new']);
    expect(await auditActions(env, a.t.org.id)).toEqual(before);

    const viaMcp = await a.tool('allocate_batch', { client_id: c, size: 100 });
    expect(viaMcp.isError, viaMcp.text).toBe(false);
    expect(viaMcp.json.preview.sample.map((l: any) => l.id)).toEqual([ok1.id, ok2.id, ok3.id, heldBack.id]);
    void [noEmail, blockedEmail, blockedDomain, blockedSite, inSnapshot, pushed, replied];
  });

  it('stores the batch, its leads (pending, unwritten) and moves them to in_batch with one audit row; a second allocate is 409 conflict', async () => {
    const a = await studioTenant(env);
    const leads = await addPoolLeads(env, a.t, [{}, {}, {}]);
    const done = await confirmRest(a, `${a.base}/batch/allocate`, { size: 2 });
    expect(done.batch).toMatchObject({ client_id: a.t.client.id, status: 'allocated', size: 2, leads: 2, written: 0, review: { pending: 2, approved: 0, rejected: 0 }, revision: 1, created_by: 'key:assistant' });
    const rows = await leadsOf(done.batch.id);
    expect(rows.map((r) => [r.poolLeadId, r.position, r.review, r.mails])).toEqual([
      [leads[0].id, 1, 'pending', null],
      [leads[1].id, 2, 'pending', null],
    ]);
    expect(await poolStatuses(env, leads.map((l) => l.id))).toEqual(['in_batch', 'in_batch', 'new']);
    expect((await auditActions(env, a.t.org.id)).filter((x) => x === 'batch.allocated')).toHaveLength(1);

    const again = await a.rest('POST', `${a.base}/batch/allocate`, { size: 1 });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('conflict');
    expect(again.json.batch.id).toBe(done.batch.id);
    const viaMcp = await a.tool('allocate_batch', { client_id: a.t.client.id });
    expect(viaMcp.isError).toBe(true);
    expect(viaMcp.text).toMatch(/^conflict/);
    expect(viaMcp.json.batch.id).toBe(done.batch.id);
  });

  it('refuses a used token, goes stale when the pool changes, and a token of other arguments is invalid', async () => {
    const a = await studioTenant(env);
    await addPoolLeads(env, a.t, [{}, {}]);
    const p = await a.tool('allocate_batch', { client_id: a.t.client.id, size: 5 });
    expect(p.json.preview.leads).toBe(2);
    const other = await a.tool('allocate_batch', { client_id: a.t.client.id, size: 4, confirm_token: p.json.confirm_token });
    expect(other.text).toMatch(/^confirm_token_invalid/);
    // A lead added since the preview changes what the batch would take.
    const [late] = await addPoolLeads(env, a.t, [{}]);
    const stale = await a.tool('allocate_batch', { client_id: a.t.client.id, size: 5, confirm_token: p.json.confirm_token });
    expect(stale.isError).toBe(true);
    expect(stale.text).toMatch(/^preview_stale/);
    expect(stale.json.preview.leads).toBe(3);
    expect(await batchesOf(a)).toHaveLength(0);
    const ok = await a.tool('allocate_batch', { client_id: a.t.client.id, size: 5, confirm_token: stale.json.confirm_token });
    expect(ok.isError, ok.text).toBe(false);
    expect(ok.json.batch.leads).toBe(3);
    expect(await poolStatuses(env, [late.id])).toEqual(['in_batch']);
    const used = await a.tool('allocate_batch', { client_id: a.t.client.id, size: 5, confirm_token: stale.json.confirm_token });
    expect(used.text).toMatch(/^confirm_token_used/);
    expect(await batchesOf(a)).toHaveLength(1);
  });

  it('lets exactly one of two concurrent confirms of different previews allocate; no lead is in two batches', async () => {
    const a = await studioTenant(env);
    await addPoolLeads(env, a.t, [{}, {}, {}, {}]);
    const p2 = await a.rest('POST', `${a.base}/batch/allocate`, { size: 2 });
    const p3 = await a.rest('POST', `${a.base}/batch/allocate`, { size: 3 });
    const [r2, r3] = await Promise.all([
      a.rest('POST', `${a.base}/batch/allocate`, { size: 2, confirm_token: p2.json.confirm_token }),
      a.rest('POST', `${a.base}/batch/allocate`, { size: 3, confirm_token: p3.json.confirm_token }),
    ]);
    const statuses = [r2.status, r3.status].sort();
    expect(statuses, `${r2.text} ${r3.text}`).toEqual([200, 409]);
    const loser = r2.status === 409 ? r2 : r3;
    expect(loser.json.error.code).toBe('conflict');
    const all = await batchesOf(a);
    expect(all).toHaveLength(1);
    const rows = await env.services.db.select().from(batchLeads).where(eq(batchLeads.clientId, a.t.client.id));
    expect(new Set(rows.map((r) => r.poolLeadId)).size).toBe(rows.length);
  });

  it('composes from a saved segment or an inline filter, not both; refuses sizes out of range', async () => {
    const a = await studioTenant(env);
    const [de1, , de2] = await addPoolLeads(env, a.t, [{ country: 'Germany' }, { country: 'France' }, { country: 'germany' }]);
    const inline = await a.rest('POST', `${a.base}/batch/allocate`, { filter: { country: 'Germany' } });
    expect(inline.json.preview.sample.map((l: any) => l.id)).toEqual([de1.id, de2.id]);
    const [seg] = await env.services.db.insert(segments).values({ orgId: a.t.org.id, clientId: a.t.client.id, name: 'France', filter: { country: ['France'] }, createdBy: 'test' }).returning();
    const bySegment = await a.rest('POST', `${a.base}/batch/allocate`, { segment_id: seg.id });
    expect(bySegment.json.preview).toMatchObject({ leads: 1, segment_id: seg.id, filter: { country: ['France'] } });
    const both = await a.rest('POST', `${a.base}/batch/allocate`, { segment_id: seg.id, filter: { country: 'Germany' } });
    expect([both.status, both.json.error.code]).toEqual([400, 'validation_error']);
    for (const size of [0, 1001, 2.5]) {
      const bad = await a.rest('POST', `${a.base}/batch/allocate`, { size });
      expect([bad.status, bad.json.error.code]).toEqual([400, 'validation_error']);
    }
    const badFilter = await a.rest('POST', `${a.base}/batch/allocate`, { filter: { colour: 'red' } });
    expect(badFilter.status).toBe(400);
    const b = await studioTenant(env);
    const [theirSeg] = await env.services.db.insert(segments).values({ orgId: b.t.org.id, clientId: b.t.client.id, name: 'Theirs', filter: {}, createdBy: 'test' }).returning();
    const foreign = await a.rest('POST', `${a.base}/batch/allocate`, { segment_id: theirSeg.id });
    expect([foreign.status, foreign.json.error.code]).toEqual([404, 'not_found']);
    // Nothing to allocate: a preview without a token.
    const none = await a.rest('POST', `${a.base}/batch/allocate`, { filter: { country: 'Spain' } });
    expect(none.status).toBe(200);
    expect(none.json).toMatchObject({ confirm_token: null, blocked_by: 'conflict' });
  });
});

describe('isolation', () => {
  it("answers 404 for another organization's client on every batch tool and leaves its batch alone", async () => {
    const a = await studioTenant(env);
    const b = await studioTenant(env);
    const { batch, leads } = await allocated(env, b, 2);
    const cb = b.t.client.id;
    const calls: Array<[string, Record<string, unknown>]> = [
      ['batch_status', { client_id: cb }],
      ['allocate_batch', { client_id: cb }],
      ['review_batch', { client_id: cb }],
      ['review_lead', { client_id: cb, lead_id: leads[0].id }],
      ['review_approve', { client_id: cb, lead_id: leads[0].id }],
      ['review_edit_mail', { client_id: cb, lead_id: leads[0].id, step: 1, body: 'Hello.' }],
      ['review_reject', { client_id: cb, lead_id: leads[0].id, reason: 'x' }],
      ['approve_batch', { client_id: cb }],
      ['skip_batch', { client_id: cb }],
    ];
    for (const [name, args] of calls) {
      const r = await a.tool(name, args);
      expect(r.text, name).toMatch(/^not_found/);
    }
    expect((await a.rest('GET', `/v1/agency/clients/${cb}/batch`)).status).toBe(404);
    expect((await a.rest('POST', `/v1/agency/clients/${cb}/batch/skip`, {})).status).toBe(404);
    // Their lead through our own client is not in our open batch either.
    await allocated(env, a, 1);
    const cross = await a.tool('review_lead', { client_id: a.t.client.id, lead_id: leads[0].id });
    expect(cross.text).toMatch(/^not_found/);
    const [row] = await env.services.db.select().from(batches).where(eq(batches.id, batch.id));
    expect([row.status, row.revision]).toEqual(['allocated', 1]);
  });
});

describe('batch_status, approve_batch and skip_batch', () => {
  it('says what waits for whom, with credits spent and the rewrite room', async () => {
    const a = await studioTenant(env);
    const none = await a.read('batch_status', `${a.base}/batch`);
    expect(none.batch).toBeNull();
    expect(none.next).toContain('allocate_batch');
    const { batch, leads } = await allocated(env, a, 3);
    let s = await a.read('batch_status', `${a.base}/batch`);
    expect(s.batch).toMatchObject({ id: batch.id, status: 'allocated', leads: 3, written: 0, source_missing: 0, credits: { writing: 0, rewrite_14d: 0, rewrite_limit: 6 } });
    expect(s.next).toContain('write 3 lead(s) (start_writing');
    await writeMails(env, batch.id, leads.map((l) => l.id));
    await env.services.db.insert(batchWrites).values([
      { orgId: a.t.org.id, batchId: batch.id, kind: 'write', leads: 3, credits: 3, confirmedBy: 'test' },
      { orgId: a.t.org.id, batchId: batch.id, kind: 'rewrite', leads: 1, credits: 1, confirmedBy: 'test' },
      { orgId: a.t.org.id, batchId: batch.id, kind: 'rewrite', leads: 2, credits: 2, confirmedBy: 'test', at: new Date(Date.now() - 15 * 86_400_000) },
    ]);
    s = await a.read('batch_status', `${a.base}/batch`);
    expect(s.batch).toMatchObject({ status: 'written', written: 3, credits: { writing: 6, rewrite_14d: 1, rewrite_limit: 6 } });
    expect(s.next).toContain('approves the 3 pending lead(s) too');
    await confirmTool(a, 'review_reject', { client_id: a.t.client.id, lead_id: leads[2].id, reason: 'wrong person' });
    for (const l of leads.slice(0, 2)) await confirmTool(a, 'review_approve', { client_id: a.t.client.id, lead_id: l.id });
    s = await a.read('batch_status', `${a.base}/batch`);
    expect(s.next).toContain('approve_batch');
    expect(s.batch.review).toEqual({ pending: 0, approved: 2, rejected: 1 });
  });

  it('blocks approval while leads are unwritten or unsourced, then approves (pending leads too) without pushing anything; rejected leads return to the pool', async () => {
    const a = await studioTenant(env);
    const c = a.t.client.id;
    const { batch, leads } = await allocated(env, a, 3);
    const early = await a.tool('approve_batch', { client_id: c });
    expect(early.json).toMatchObject({ confirm_token: null, blocked_by: 'conflict', preview: { waiting: { not_written: 3, source_missing: 0 } } });
    await writeMails(env, batch.id, [leads[0].id, leads[2].id]);
    await writeMails(env, batch.id, [leads[1].id], [mailOf(1, { unsourced: ['We doubled every client\'s pipeline.'] }), mailOf(2)]);
    await confirmTool(a, 'review_approve', { client_id: c, lead_id: leads[0].id });
    const unsourced = await a.rest('POST', `${a.base}/batch/approve`, {});
    expect(unsourced.json).toMatchObject({ confirm_token: null, blocked_by: 'source_missing', preview: { waiting: { not_written: 0, source_missing: 1 }, approves_pending: 2 } });
    await confirmTool(a, 'review_reject', { client_id: c, lead_id: leads[2].id, reason: 'competitor' });
    expect((await a.rest('POST', `${a.base}/batch/approve`, {})).json.blocked_by).toBe('source_missing');
    const fixed = await a.rest('GET', `${a.base}/review/${leads[1].id}`);
    const mail = fixed.json.review.mails[0];
    await confirmTool(a, 'review_edit_mail', { client_id: c, lead_id: leads[1].id, step: mail.step, body: 'Hi there, a sentence a person wrote.' });
    const p = await a.rest('POST', `${a.base}/batch/approve`, {});
    expect(p.json.preview).toMatchObject({ to_push: 2, approves_pending: 1 });
    const done = await a.rest('POST', `${a.base}/batch/approve`, { confirm_token: p.json.confirm_token });
    expect(done.status, done.text).toBe(200);
    expect(done.json.batch).toMatchObject({ status: 'approved', approved_by: 'key:assistant', review: { approved: 2, rejected: 1, pending: 0 } });
    expect(done.json.batch.approved_at).toEqual(expect.any(String));
    expect(await poolStatuses(env, leads.map((l) => l.id))).toEqual(['in_batch', 'in_batch', 'new']);
    // Approval never pushes: no Studio campaign, nothing at the sequencer.
    expect(await env.services.db.select().from(studioCampaigns).where(eq(studioCampaigns.orgId, a.t.org.id))).toHaveLength(0);
    expect(await env.services.db.select().from(simSequencerCampaigns).where(eq(simSequencerCampaigns.orgId, a.t.org.id))).toHaveLength(0);
    expect(await auditActions(env, a.t.org.id)).toContain('batch.approved');
    const again = await a.tool('approve_batch', { client_id: c });
    expect(again.text).toMatch(/^conflict/);
    // The approved batch is still the open one: review is closed, a new allocation waits.
    const late = await a.tool('review_reject', { client_id: c, lead_id: leads[0].id, reason: 'late' });
    expect(late.text).toMatch(/^conflict/);
    expect((await a.rest('POST', `${a.base}/batch/allocate`, {})).status).toBe(409);
    const s = await a.read('batch_status', `${a.base}/batch`);
    expect(s.next).toContain('start_campaign');
  });

  it('skips a batch: its leads return to the pool as new, its rows stay, and the next allocation takes them (not the rejected one)', async () => {
    const a = await studioTenant(env);
    const c = a.t.client.id;
    const { batch, leads } = await allocated(env, a, 3);
    await writeMails(env, batch.id, leads.map((l) => l.id));
    await confirmTool(a, 'review_reject', { client_id: c, lead_id: leads[1].id, reason: 'not a fit' });
    await env.services.db.insert(batchWrites).values({ orgId: a.t.org.id, batchId: batch.id, kind: 'write', leads: 3, credits: 3, confirmedBy: 'test' });
    const p = await a.tool('skip_batch', { client_id: c });
    expect(p.json.preview).toMatchObject({ returning_to_pool: 3, credits_spent: 3 });
    expect(await poolStatuses(env, leads.map((l) => l.id))).toEqual(['in_batch', 'in_batch', 'in_batch']);
    const done = await a.tool('skip_batch', { client_id: c, confirm_token: p.json.confirm_token });
    expect(done.isError, done.text).toBe(false);
    expect(done.json.batch).toMatchObject({ id: batch.id, status: 'skipped', revision: batch.revision + 2 });
    expect(await poolStatuses(env, leads.map((l) => l.id))).toEqual(['new', 'new', 'new']);
    expect(await leadsOf(batch.id)).toHaveLength(3);
    expect(await auditActions(env, a.t.org.id)).toContain('batch.skipped');
    const twice = await a.tool('skip_batch', { client_id: c });
    expect(twice.text).toMatch(/^conflict/);
    expect(twice.json.batch.status).toBe('skipped');
    const next = await a.tool('allocate_batch', { client_id: c });
    expect(next.json.preview.sample.map((l: any) => l.id)).toEqual([leads[0].id, leads[2].id]);
    expect(next.json.preview.excluded.rejected).toBe(1);
  });

  it('refuses approve and skip of a batch being pushed or pushed with 409 conflict', async () => {
    const a = await studioTenant(env);
    const { batch } = await allocated(env, a, 1);
    for (const status of ['pushing', 'pushed'] as const) {
      await env.services.db.update(batches).set({ status }).where(and(eq(batches.id, batch.id)));
      for (const path of ['approve', 'skip']) {
        const r = await a.rest('POST', `${a.base}/batch/${path}`, {});
        expect([r.status, r.json.error.code], `${status} ${path}`).toEqual([409, 'conflict']);
        expect(r.json.batch).toMatchObject({ id: batch.id, status });
      }
    }
  });
});
