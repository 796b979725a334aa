// start_writing on both faces: every sentence with its source (fields, sequence, playbook, docs; null for a missing
// value), custom columns only once switched on for writing, deterministic mails, credits charged only on confirm and
// exactly once (concurrent confirms too), 402 when short, the rewrite limit and its person-approved plan step; the
// hosted writer adapter against a fake model (sources checked, unusable answers refused).
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHostedWriter } from '../../lib/writing/hosted';
import { auditLog, clients, organizations, poolColumns } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { advanceTo, drain } from '../plans/plans_helpers';
import { writingTenant } from './writing_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({}, { ownDatabase: true });
});
afterAll(() => env.close());

const sources = (mails: any[]) => mails.flatMap((m) => m.sentences.map((s: any) => s.source));

describe('start_writing', () => {
  it('previews for free with 2 sample leads, then writes every lead with a source on every sentence and charges once', async () => {
    const w = await writingTenant(env);
    await w.db.update(clients).set({ playbook: { instructions: 'Be brief.', tone: null, signature: 'Maria Lang, Acme Outbound', rules: [] }, playbookVersion: 3 }).where(eq(clients.id, w.t.client.id));
    await w.db.update(organizations).set({ agencyDocs: 'We help teams like yours send fewer, better mails.' }).where(eq(organizations.id, w.t.org.id));
    const leads = await w.addLeads(3);
    const batch = await w.makeBatch(leads.map((l) => l.id));
    const before = await w.balance();

    const p1 = await w.rest('POST', `${w.base}/batch/start-writing`, {});
    expect(p1.status, p1.text).toBe(200);
    expect(p1.json).toMatchObject({ credits: 3, confirm_token: expect.any(String), preview: { batch_id: batch.id, leads: 3, first_writes: 3, rewrites: 0, credits: 3, person_confirmation: null } });
    expect(p1.json.preview.sample.map((s: any) => s.lead_id)).toEqual([leads[0].id, leads[1].id]);
    const first = p1.json.preview.sample[0].mails[0];
    expect(first.subject).toBe(`Quick idea for ${leads[0].company}`);
    expect(first.sentences).toEqual([
      { text: `Hi ${leads[0].firstName},`, source: { kind: 'sequence', ref: 'step 1' } },
      { text: 'Saw your team doubled its outbound this spring.', source: { kind: 'field', ref: 'hook' } },
      { text: 'I hope this finds you well.', source: { kind: 'sequence', ref: 'step 1' } },
      { text: 'We help teams like yours send fewer, better mails.', source: { kind: 'docs', ref: 'agency_docs' } },
      { text: 'Maria Lang, Acme Outbound', source: { kind: 'playbook', ref: 'v3' } },
    ]);
    expect(first.body).toBe(`Hi ${leads[0].firstName},\n\nSaw your team doubled its outbound this spring.\n\nI hope this finds you well. We help teams like yours send fewer, better mails.\n\nMaria Lang, Acme Outbound`);
    // The preview wrote and charged nothing.
    expect((await w.leadRows(batch.id)).every((l) => l.mails === null && l.writes === 0)).toBe(true);
    expect(await w.balance()).toBe(before);

    // The MCP face previews the same mails (deterministic), with a token of its own.
    const viaMcp = await w.tool('start_writing', { client_id: w.t.client.id });
    expect(viaMcp.isError, viaMcp.text).toBe(false);
    expect(viaMcp.json.preview.sample).toEqual(p1.json.preview.sample);

    const done = await w.rest('POST', `${w.base}/batch/start-writing`, { confirm_token: p1.json.confirm_token });
    expect(done.status, done.text).toBe(200);
    expect(done.json).toMatchObject({ batch: { id: batch.id, status: 'written', revision: 2 }, round: { leads: 3, first_writes: 3, rewrites: 0, credits: 3 } });
    const rows = await w.leadRows(batch.id);
    expect(rows.map((r) => [r.writes, r.review, r.mails?.length])).toEqual([[1, 'pending', 2], [1, 'pending', 2], [1, 'pending', 2]]);
    expect(sources(rows.flatMap((r) => r.mails!)).every((s) => s !== null)).toBe(true);
    // What the preview showed is what was written.
    expect(rows[0].mails).toEqual(p1.json.preview.sample[0].mails);
    expect(await w.balance()).toBe(before - 3);
    expect(await w.charges('start_writing')).toHaveLength(1);
    expect((await w.writes(batch.id)).map((r) => [r.kind, r.leads, r.credits, r.confirmedBy, r.planStepId])).toEqual([['write', 3, 3, 'key:assistant', null]]);
    const audit = await w.db.select().from(auditLog).where(and(eq(auditLog.orgId, w.t.org.id), eq(auditLog.action, 'batch.written')));
    expect(audit.map((a) => [a.target, a.credits])).toEqual([[`batch:${batch.id}`, 3]]);
    // The MCP token was issued against the old state: stale now, with a fresh preview (rewrites this time).
    const unknown = await w.tool('start_writing', { client_id: w.t.client.id, confirm_token: 'x'.repeat(10) });
    expect(unknown.text).toMatch(/^confirm_token_invalid/);
    const staleMcp = await w.tool('start_writing', { client_id: w.t.client.id, confirm_token: viaMcp.json.confirm_token });
    expect(staleMcp.isError).toBe(true);
    expect(staleMcp.text).toMatch(/^preview_stale/);
    expect(staleMcp.json.preview.rewrites).toBe(3);
  });

  it('gives a missing value source null, and uses a custom column only once a person switched it on for writing', async () => {
    const steps = [{ subject: 'Hello', body: 'Hi {{first_name}}.\n\nYour team of {{custom.team_size}} people.\n\n{{sender.name}}', delay_days: 0 }];
    const w = await writingTenant(env, { steps });
    const [lead, noName] = await w.addLeads(2, (i) => ({ custom: { team_size: 12 }, firstName: i === 1 ? null : 'Anna' }));
    await w.db.insert(poolColumns).values({ clientId: w.t.client.id, orgId: w.t.org.id, key: 'team_size', type: 'number', createdBy: 'test' });
    await w.makeBatch([lead.id, noName.id]);
    let p = await w.rest('POST', `${w.base}/batch/start-writing`, {});
    expect(p.status, p.text).toBe(200);
    const [a, b] = p.json.preview.sample.map((s: any) => s.mails[0].sentences);
    expect(a[1]).toEqual({ text: 'Your team of [[custom.team_size?]] people.', source: null });
    expect(b[0]).toEqual({ text: 'Hi [[first_name?]].', source: null });
    await w.db.update(poolColumns).set({ useForWriting: true }).where(eq(poolColumns.clientId, w.t.client.id));
    p = await w.rest('POST', `${w.base}/batch/start-writing`, {});
    expect(p.json.preview.sample[0].mails[0].sentences[1]).toEqual({ text: 'Your team of 12 people.', source: { kind: 'sequence', ref: 'step 1' } });
    expect(p.json.preview.sample[0].mails[0].sentences[2]).toEqual({ text: 'Client A', source: { kind: 'sequence', ref: 'step 1' } });
  });

  it('charges exactly once when the same token is confirmed twice at once, and once when two previews race', async () => {
    const w = await writingTenant(env);
    const leads = await w.addLeads(4);
    const batch = await w.makeBatch(leads.map((l) => l.id));
    const before = await w.balance();
    const p = await w.rest('POST', `${w.base}/batch/start-writing`, {});
    const body = { confirm_token: p.json.confirm_token };
    const results = await Promise.all([w.rest('POST', `${w.base}/batch/start-writing`, body), w.tool('start_writing', { client_id: w.t.client.id, ...body }), w.rest('POST', `${w.base}/batch/start-writing`, body)]);
    const statuses = [results[0].status, results[1].isError ? 'error' : 200, results[2].status];
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(await w.balance()).toBe(before - 4);
    // Two previews, both confirmed at once: the batch lock makes the second see the first's revision (stale).
    const [x, y] = await Promise.all([w.rest('POST', `${w.base}/batch/start-writing`, {}), w.rest('POST', `${w.base}/batch/start-writing`, {})]);
    const race = await Promise.all([
      w.rest('POST', `${w.base}/batch/start-writing`, { confirm_token: x.json.confirm_token }),
      w.rest('POST', `${w.base}/batch/start-writing`, { confirm_token: y.json.confirm_token }),
    ]);
    expect(race.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(race.find((r) => r.status === 409)!.json.error.code).toBe('preview_stale');
    expect(await w.balance()).toBe(before - 8);
    expect(await w.charges('start_writing')).toHaveLength(2);
    expect((await w.leadRows(batch.id)).map((l) => l.writes)).toEqual([2, 2, 2, 2]);
  });

  it('answers 402 insufficient_credits when the balance is short, writing nothing', async () => {
    const w = await writingTenant(env);
    const leads = await w.addLeads(3);
    const batch = await w.makeBatch(leads.map((l) => l.id));
    await w.setCredits(2);
    const blocked = await w.rest('POST', `${w.base}/batch/start-writing`, {});
    expect(blocked.json).toMatchObject({ confirm_token: null, blocked_by: 'insufficient_credits', credits: 3, preview: { balance: 2 } });
    await w.setCredits(3);
    const p = await w.rest('POST', `${w.base}/batch/start-writing`, {});
    expect(p.json.confirm_token).toEqual(expect.any(String));
    await w.setCredits(1);
    const done = await w.rest('POST', `${w.base}/batch/start-writing`, { confirm_token: p.json.confirm_token });
    expect(done.status, done.text).toBe(402);
    expect(done.json.error.code).toBe('insufficient_credits');
    expect((await w.leadRows(batch.id)).every((l) => l.mails === null)).toBe(true);
    expect(await w.writes(batch.id)).toHaveLength(0);
    expect(await w.balance()).toBe(1);
  });

  it("gives no token when the key's daily credit limit cannot cover the write; a key with room writes", async () => {
    const w = await writingTenant(env);
    const leads = await w.addLeads(3);
    const batch = await w.makeBatch(leads.map((l) => l.id));
    const small = await w.t.addKey({ name: 'small budget', kind: 'agency', daily_credit_limit: 2 });
    const blocked = await w.t.call('POST', `${w.base}/batch/start-writing`, { key: small, body: {} });
    expect(blocked.status, blocked.text).toBe(200);
    expect(blocked.json).toMatchObject({ confirm_token: null, blocked_by: 'daily_credit_limit_exceeded', credits: 3 });
    expect((await w.leadRows(batch.id)).every((l) => l.mails === null)).toBe(true);
    const { done } = await w.write();
    expect(done.status, done.text).toBe(200);
  });

  it('refuses what it cannot write: no batch (409), another client or org (404), a lead not in the batch (404), bad input (400)', async () => {
    const w = await writingTenant(env);
    const none = await w.rest('POST', `${w.base}/batch/start-writing`, {});
    expect(none.status).toBe(409);
    expect(none.json.error.code).toBe('conflict');
    const [lead] = await w.addLeads(1);
    await w.makeBatch([lead.id]);
    const other = await writingTenant(env);
    const foreign = await other.rest('POST', `${w.base}/batch/start-writing`, {});
    expect(foreign.status).toBe(404);
    const [outside] = await w.addLeads(1);
    const notIn = await w.rest('POST', `${w.base}/batch/start-writing`, { lead_ids: [outside.id] });
    expect(notIn.status).toBe(404);
    expect(notIn.json.error.message).toContain(outside.id);
    const bad = await w.rest('POST', `${w.base}/batch/start-writing`, { lead_ids: ['nope'] });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('validation_error');
  });

  it('rewrite limit: beyond 2 × batch size in 14 days a person confirms, through an approved rewrite_batch step', async () => {
    const w = await writingTenant(env);
    const leads = await w.addLeads(2);
    const batch = await w.makeBatch(leads.map((l) => l.id));
    expect((await w.write()).done.status).toBe(200); // first write: 2 credits, not a rewrite
    expect((await w.write()).done.status).toBe(200); // rewrite: 2 of 4
    const third = await w.write({ lead_ids: [leads[0].id] }); // rewrite one lead: 3 of 4
    expect(third.done.status).toBe(200);
    expect(third.preview.preview.rewrite_limit).toEqual({ window_days: 14, limit: 4, used: 2, after: 3 });
    const blocked = await w.rest('POST', `${w.base}/batch/start-writing`, {});
    expect(blocked.json).toMatchObject({
      confirm_token: null,
      blocked_by: 'person_confirmation_required',
      credits: 2,
      preview: { rewrite_limit: { limit: 4, used: 3, after: 5 }, person_confirmation: { propose: { kind: 'rewrite_batch', params: { batch_id: batch.id, leads: 2 } } } },
    });
    const balance = await w.balance();

    const proposed = await w.rest('POST', `${w.base}/plan/steps`, blocked.json.preview.person_confirmation.propose);
    expect(proposed.status, proposed.text).toBe(201);
    expect(proposed.json.step).toMatchObject({ kind: 'rewrite_batch', credits: 2 });
    const planId = proposed.json.plan.id;
    // The assistant cannot approve it, even with the approve scope.
    const refused = await w.t.call('POST', `/v1/agency/plans/${planId}/approve`, { key: await w.t.addKey({ name: 'approver', kind: 'agency', scopes: ['agency.plans.approve'] }), body: {} });
    expect(refused.json).toMatchObject({ confirm_token: null, blocked_by: 'person_confirmation_required' });
    const ok = await w.t.admin('POST', `/admin/v1/plans/${planId}/approve`, { approver: 'Maria Owner' });
    expect(ok.status, ok.text).toBe(200);
    await drain(env);
    const step = ok.json.plan.steps[0];
    if (step.due_at) await advanceTo(env, step.due_at);
    const rounds = await w.writes(batch.id);
    expect(rounds.map((r) => [r.kind, r.credits, r.confirmedBy, r.planStepId])).toEqual([
      ['write', 2, 'key:assistant', null],
      ['rewrite', 2, 'key:assistant', null],
      ['rewrite', 1, 'key:assistant', null],
      ['rewrite', 2, 'Maria Owner', step.id],
    ]);
    expect(await w.balance()).toBe(balance - 2);
    expect(await w.charges('rewrite_batch')).toHaveLength(1);
    await drain(env);
    expect(await w.charges('rewrite_batch')).toHaveLength(1);
    expect((await w.leadRows(batch.id)).map((l) => l.writes)).toEqual([4, 3]);
  });
});

describe('the hosted writer adapter', () => {
  const ctx = {
    steps: [{ subject: 'Idea for {{company}}', body: 'Hi {{first_name}},\n\n{{hook}}\n\n{{sender.name}}', delay_days: 0, condition: 'always' as const }],
    senderName: 'Maria',
    playbook: { version: 2, signature: 'Maria Lang' },
    agencyDocs: '',
    rules: [{ id: 'rule-1', spec: { kind: 'avoid_phrase' as const, phrase: 'hope this finds you well' } }],
  };
  const lead = { id: 'lead-1', values: { first_name: 'Anna', company: 'Acme', hook: 'You doubled outbound.', title: null } };
  const answer = {
    mails: [
      {
        step: 1,
        subject: 'Idea for Acme',
        sentences: [
          { text: 'Hi Anna,', source: { kind: 'sequence', ref: 'step 1' } },
          { text: 'You doubled outbound.', source: { kind: 'field', ref: 'hook' }, brk: 'paragraph' },
          { text: 'As Head of Sales you know this.', source: { kind: 'field', ref: 'title' } },
          { text: 'We saved Globex a fortune.', brk: '' },
          { text: 'Short and to the point.', source: { kind: 'rule', ref: 'rule-1' } },
          { text: 'Maria Lang', source: { kind: 'playbook', ref: 'v2' }, brk: 'paragraph' },
        ],
      },
    ],
  };

  it('asks for sourced JSON sentences and keeps only sources that exist; an unsourced or invented one gets null', async () => {
    const calls: any[] = [];
    const fetchFake = (async (_url: string, init: RequestInit) => {
      calls.push(JSON.parse(String(init.body)));
      return new Response(JSON.stringify({ choices: [{ message: { content: JSON.stringify(answer) } }] }), { status: 200 });
    }) as unknown as typeof fetch;
    const writer = createHostedWriter({ provider: 'openai', model: 'm', apiKey: 'k', fetch: fetchFake });
    const [w] = await writer.write(ctx, [lead]);
    expect(calls).toHaveLength(1);
    expect(calls[0].messages[0].content).toContain('Every sentence names where it comes from');
    expect(JSON.parse(calls[0].messages[1].content).rules).toEqual([{ id: 'rule-1', rule: 'Never write "hope this finds you well".' }]);
    expect(w.mails[0].sentences.map((s) => s.source)).toEqual([
      { kind: 'sequence', ref: 'step 1' },
      { kind: 'field', ref: 'hook' },
      null, // the lead has no title: an invented citation
      null, // no source at all
      { kind: 'rule', ref: 'rule-1' },
      { kind: 'playbook', ref: 'v2' },
    ]);
    expect(w.rulesUsed).toEqual(['rule-1']);
    expect(w.mails[0].body).toBe('Hi Anna,\n\nYou doubled outbound. As Head of Sales you know this. We saved Globex a fortune. Short and to the point.\n\nMaria Lang');
  });

  it('fails the round with ai_error on an unusable answer or a failed call', async () => {
    const reply = (body: unknown, status = 200) => (async () => new Response(JSON.stringify(body), { status })) as unknown as typeof fetch;
    const bad = createHostedWriter({ provider: 'anthropic', model: 'm', apiKey: 'k', fetch: reply({ content: [{ type: 'text', text: 'no json here' }] }) });
    await expect(bad.write(ctx, [lead])).rejects.toMatchObject({ code: 'ai_error' });
    const down = createHostedWriter({ provider: 'openai', model: 'm', apiKey: 'k', fetch: reply({}, 503) });
    await expect(down.write(ctx, [lead])).rejects.toMatchObject({ code: 'ai_error' });
  });
});
