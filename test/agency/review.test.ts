// The review tools on both faces: reading a batch page and one lead with every sentence's source, approval refused
// while a sentence has no source (and before writing), edits that keep or assign sources and leave a review_edits
// row, rejection with a reason, the batch revision making an older preview stale, and review closed once approved.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourcesAfterEdit } from '../../lib/batches/edit_sources';
import { auditLog, batchLeads, batches, reviewEdits } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { allocated, auditActions, confirmTool, mailOf, studioTenant, writeMails, type StudioTenant } from './batch_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const rowOf = async (batchId: string, leadId: string) =>
  (await env.services.db.select().from(batchLeads).where(and(eq(batchLeads.batchId, batchId), eq(batchLeads.poolLeadId, leadId))))[0];
/** review_lead through REST and MCP: the same answer, returned. */
async function readLead(a: StudioTenant, leadId: string) {
  const viaRest = await a.rest('GET', `${a.base}/review/${leadId}`);
  const viaTool = await a.tool('review_lead', { client_id: a.t.client.id, lead_id: leadId });
  expect(viaRest.status, viaRest.text.slice(0, 300)).toBe(200);
  expect(viaTool.isError, viaTool.text.slice(0, 300)).toBe(false);
  expect(viaTool.json).toEqual(viaRest.json);
  return viaRest.json;
}
const revisionOf = async (batchId: string) => (await env.services.db.select().from(batches).where(eq(batches.id, batchId)))[0].revision;

describe('review_batch and review_lead', () => {
  it('pages the open batch with review status and excerpts, and shows one lead with its sourced sentences; the same on both faces', async () => {
    const a = await studioTenant(env);
    const c = a.t.client.id;
    const empty = await a.read('review_batch', `${a.base}/review`);
    expect(empty).toEqual({ batch: null, leads: [], next_offset: null });
    const { batch, leads } = await allocated(env, a, 3, { firstName: 'Mia', lastName: 'Stone', company: 'Acme' });
    await writeMails(env, batch.id, [leads[0].id, leads[1].id], [mailOf(1, { unsourced: ['Your team grew 40% last year.'] }), mailOf(2)]);
    const page = await a.read('review_batch', `${a.base}/review`, { limit: 2 });
    expect(page.batch).toMatchObject({ id: batch.id, leads: 3, written: 2 });
    expect(page.next_offset).toBe(2);
    expect(page.leads[0]).toMatchObject({ lead_id: leads[0].id, position: 1, email: leads[0].email, name: 'Mia Stone', company: 'Acme', review: 'pending', written: true, source_missing: 1 });
    expect(page.leads[0].excerpt).toMatch(/^Hi Mia, Saw your launch/);
    const rest = await a.read('review_batch', `${a.base}/review`, { offset: 2, limit: 2 });
    expect(rest.leads.map((l: any) => [l.lead_id, l.written, l.excerpt])).toEqual([[leads[2].id, false, null]]);
    expect(rest.next_offset).toBeNull();
    await confirmTool(a, 'review_reject', { client_id: c, lead_id: leads[2].id, reason: 'not a fit' });
    const rejected = await a.read('review_batch', `${a.base}/review`, { review: 'rejected' });
    expect(rejected.leads.map((l: any) => [l.lead_id, l.reject_reason])).toEqual([[leads[2].id, 'not a fit']]);
    const bad = await a.rest('GET', `${a.base}/review?limit=201`);
    expect(bad.status).toBe(400);

    const one = await readLead(a, leads[0].id);
    expect(one.lead).toMatchObject({ id: leads[0].id, email: leads[0].email, status: 'in_batch' });
    expect(one.review).toMatchObject({ lead_id: leads[0].id, batch_id: batch.id, status: 'pending', written: true, source_missing: 1, writes: 1 });
    expect(one.review.mails).toHaveLength(2);
    expect(one.review.mails[0].sentences[1]).toEqual({ text: 'Saw your launch of the new plan.', source: { kind: 'field', ref: 'hook' } });
    expect(one.review.missing).toEqual([{ step: 1, sentence: 3, text: 'Your team grew 40% last year.' }]);
    expect(one.edits).toEqual([]);
  });

  it('answers 404 for a lead that is not in the open batch', async () => {
    const a = await studioTenant(env);
    const { leads } = await allocated(env, a, 1);
    const otherClient = await a.t.addClient('Client B');
    const viaOther = await a.rest('GET', `/v1/agency/clients/${otherClient.id}/review/${leads[0].id}`);
    expect([viaOther.status, viaOther.json.error.code]).toEqual([404, 'not_found']);
    const unknown = await a.tool('review_lead', { client_id: a.t.client.id, lead_id: '00000000-0000-4000-8000-00000000abcd' });
    expect(unknown.text).toMatch(/^not_found/);
    const badId = await a.tool('review_lead', { client_id: a.t.client.id, lead_id: 'nope' });
    expect(badId.text).toMatch(/^validation_error: lead_id/);
  });
});

describe('review_approve', () => {
  it('refuses an unwritten lead with 409 conflict and a lead with an unsourced sentence with blocked_by source_missing', async () => {
    const a = await studioTenant(env);
    const c = a.t.client.id;
    const { batch, leads } = await allocated(env, a, 2);
    const unwritten = await a.rest('POST', `${a.base}/review/${leads[0].id}/approve`, {});
    expect([unwritten.status, unwritten.json.error.code]).toEqual([409, 'conflict']);
    expect(unwritten.json.error.message).toContain('start_writing');
    await writeMails(env, batch.id, [leads[0].id], [mailOf(1, { unsourced: ['We saved Acme 3 hours a day.'] })]);
    const blocked = await a.tool('review_approve', { client_id: c, lead_id: leads[0].id });
    expect(blocked.isError, blocked.text).toBe(false);
    expect(blocked.json).toMatchObject({ confirm_token: null, expires_at: null, blocked_by: 'source_missing' });
    expect(blocked.json.preview.source_missing).toEqual([{ step: 1, sentence: 3, text: 'We saved Acme 3 hours a day.' }]);
    expect((await rowOf(batch.id, leads[0].id)).review).toBe('pending');
    // Replacing the unsourced sentence makes it approvable.
    const mail = mailOf(1, { unsourced: ['We saved Acme 3 hours a day.'] });
    const body = mail.body.replace('We saved Acme 3 hours a day.', 'Teams like yours often lose hours to manual follow-ups.');
    await confirmTool(a, 'review_edit_mail', { client_id: c, lead_id: leads[0].id, step: 1, body });
    const ok = await confirmTool(a, 'review_approve', { client_id: c, lead_id: leads[0].id });
    expect(ok.review).toMatchObject({ status: 'approved', reviewed_by: 'mcp:assistant', source_missing: 0 });
    expect(ok.batch.review.approved).toBe(1);
    const row = await rowOf(batch.id, leads[0].id);
    expect([row.review, row.reviewedBy]).toEqual(['approved', 'mcp:assistant']);
    expect(row.reviewedAt).toBeInstanceOf(Date);
    expect(await auditActions(env, a.t.org.id)).toEqual(expect.arrayContaining(['batch.allocated', 'review.edited', 'review.approved']));
  });

  it('makes a preview stale when the batch changes in between (the revision), answering a fresh token', async () => {
    const a = await studioTenant(env);
    const c = a.t.client.id;
    const { batch, leads } = await allocated(env, a, 2);
    await writeMails(env, batch.id, leads.map((l) => l.id));
    const pa = await a.tool('review_approve', { client_id: c, lead_id: leads[0].id });
    const rev = await revisionOf(batch.id);
    await confirmTool(a, 'review_reject', { client_id: c, lead_id: leads[1].id, reason: 'duplicate company' });
    expect(await revisionOf(batch.id)).toBe(rev + 1);
    const stale = await a.tool('review_approve', { client_id: c, lead_id: leads[0].id, confirm_token: pa.json.confirm_token });
    expect(stale.text).toMatch(/^preview_stale/);
    expect(stale.json.confirm_token).toEqual(expect.any(String));
    expect((await rowOf(batch.id, leads[0].id)).review).toBe('pending');
    const ok = await a.tool('review_approve', { client_id: c, lead_id: leads[0].id, confirm_token: stale.json.confirm_token });
    expect(ok.isError, ok.text).toBe(false);
    const used = await a.tool('review_approve', { client_id: c, lead_id: leads[0].id, confirm_token: stale.json.confirm_token });
    expect(used.text).toMatch(/^confirm_token_used/);
    // Approving a rejected lead reverses the rejection.
    const back = await confirmTool(a, 'review_approve', { client_id: c, lead_id: leads[1].id });
    expect(back.review).toMatchObject({ status: 'approved', reject_reason: null });
  });
});

describe('review_edit_mail', () => {
  it('keeps the sources of unchanged sentences, sources new ones to the editor, records the edit and sends the lead back to review', async () => {
    const a = await studioTenant(env);
    const c = a.t.client.id;
    const { batch, leads } = await allocated(env, a, 1);
    const before = mailOf(1, { unsourced: ['Unsourced claim here.'] });
    await writeMails(env, batch.id, [leads[0].id], [before, mailOf(2)]);
    await confirmTool(a, 'review_reject', { client_id: c, lead_id: leads[0].id, reason: 'tone' });
    const rev = await revisionOf(batch.id);
    // Same greeting and hook (white space differs), a new sentence, the playbook sentence dropped, the claim kept.
    const body = 'Hi   Mia,\n\nSaw your launch of the new plan. Congrats on the launch!\n\nUnsourced claim here.\n\nBest, Anna';
    const preview = await a.rest('POST', `${a.base}/review/${leads[0].id}/edit`, { step: 1, body, subject: 'A new idea' });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.json.preview).toMatchObject({ kept: 4, added: 1, removed: 1, before: { subject: 'Quick idea' }, after: { subject: 'A new idea', body } });
    expect(await env.services.db.select().from(reviewEdits).where(eq(reviewEdits.batchId, batch.id))).toHaveLength(0);
    const done = await a.rest('POST', `${a.base}/review/${leads[0].id}/edit`, { step: 1, body, subject: 'A new idea', confirm_token: preview.json.confirm_token });
    expect(done.status, done.text).toBe(200);
    expect(done.json.edit.after.sentences).toEqual([
      { text: 'Hi   Mia,', source: { kind: 'sequence', ref: 'step 1' } },
      { text: 'Saw your launch of the new plan.', source: { kind: 'field', ref: 'hook' } },
      { text: 'Congrats on the launch!', source: { kind: 'edit', ref: 'key:assistant' } },
      { text: 'Unsourced claim here.', source: null },
      { text: 'Best, Anna', source: { kind: 'sequence', ref: 'step 1' } },
    ]);
    expect(done.json.review).toMatchObject({ status: 'pending', reject_reason: null, source_missing: 1 });
    expect(done.json.batch.revision).toBe(rev + 1);
    const row = await rowOf(batch.id, leads[0].id);
    expect(row.mails![0]).toEqual(done.json.edit.after);
    expect(row.mails![1]).toEqual(mailOf(2));
    const [edit] = await env.services.db.select().from(reviewEdits).where(eq(reviewEdits.batchId, batch.id));
    expect(edit).toMatchObject({ id: done.json.edit.id, poolLeadId: leads[0].id, step: 1, by: 'key:assistant', before, after: done.json.edit.after });
    const [audit] = await env.services.db.select().from(auditLog).where(and(eq(auditLog.orgId, a.t.org.id), eq(auditLog.action, 'review.edited')));
    expect(audit.detail).toMatchObject({ edit_id: edit.id, batch_id: batch.id, kept: 4, added: 1, removed: 1 });
    const lead = await readLead(a, leads[0].id);
    expect(lead.edits.map((e: any) => e.id)).toEqual([edit.id]);
  });

  it('refuses an unknown step, an unchanged mail, an unwritten lead and a batch already approved', async () => {
    const a = await studioTenant(env);
    const c = a.t.client.id;
    const { batch, leads } = await allocated(env, a, 2);
    const unwritten = await a.tool('review_edit_mail', { client_id: c, lead_id: leads[0].id, step: 1, body: 'Hello there.' });
    expect(unwritten.text).toMatch(/^conflict/);
    await writeMails(env, batch.id, leads.map((l) => l.id), [mailOf(1)]);
    const step = await a.rest('POST', `${a.base}/review/${leads[0].id}/edit`, { step: 2, body: 'Hello there.' });
    expect([step.status, step.json.error.code]).toEqual([400, 'validation_error']);
    expect(step.json.error.message).toMatch(/^step/);
    const same = await a.rest('POST', `${a.base}/review/${leads[0].id}/edit`, { step: 1, body: mailOf(1).body });
    expect([same.status, same.json.error.code]).toEqual([400, 'validation_error']);
    const noSubject = await a.rest('POST', `${a.base}/review/${leads[0].id}/edit`, { step: 1, body: 'Hi.', subject: null });
    expect(noSubject.status).toBe(400);
    for (const l of leads) await confirmTool(a, 'review_approve', { client_id: c, lead_id: l.id });
    await confirmTool(a, 'approve_batch', { client_id: c });
    const closed = await a.rest('POST', `${a.base}/review/${leads[0].id}/edit`, { step: 1, body: 'Hello there.' });
    expect([closed.status, closed.json.error.code]).toEqual([409, 'conflict']);
    expect(closed.json.batch.status).toBe('approved');
    expect(await env.services.db.select().from(reviewEdits).where(eq(reviewEdits.batchId, batch.id))).toHaveLength(0);
  });
});

describe('sourcesAfterEdit', () => {
  it('keeps each old source once, joins pieces the splitter cut, and sources the rest to the actor', () => {
    const before = {
      step: 1,
      subject: 's',
      delay_days: 0,
      body: '',
      sentences: [
        { text: 'Thanks.', source: { kind: 'sequence' as const, ref: 'step 1' } },
        { text: 'Thanks.', source: { kind: 'rule' as const, ref: 'r1' } },
        { text: 'Are you hiring, e.g. SDRs?', source: { kind: 'field' as const, ref: 'hook' } },
      ],
    };
    const r = sourcesAfterEdit(before, 'Thanks. Thanks. Thanks.\nAre you hiring, e.g. SDRs?', 'mcp:bot');
    expect(r.sentences.map((s) => s.source)).toEqual([
      { kind: 'sequence', ref: 'step 1' },
      { kind: 'rule', ref: 'r1' },
      { kind: 'edit', ref: 'mcp:bot' },
      { kind: 'field', ref: 'hook' },
    ]);
    expect([r.kept, r.added, r.removed]).toEqual([3, 1, 0]);
  });
});
