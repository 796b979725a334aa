// core §3 "Reply draft under governed send", row by row, through the REST API; the Decision Trail through the
// admin decisions route, the sent message through the outbox route.
import { and, eq } from 'drizzle-orm';
import { distance } from 'fastest-levenshtein';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { learnedExamples } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';
import { eventsOf, keyAt, outbox, trail } from './send_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

describe('POST /v1/replies/{id}/send by autonomy level (no draft yet)', () => {
  it('level 0: 202 queued_for_review, reason no_active_autonomy_grant; nothing sent', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { body: { body: 'Happy to talk Tuesday.' } });
    expect(r.status).toBe(202);
    expect(r.json).toEqual({ status: 'queued_for_review', reply_id: reply.id, reason: 'no_active_autonomy_grant', suggestion_id: expect.stringMatching(/^sug_/), replaced: false });
    expect(await outbox(t)).toEqual([]);
    const d = await trail(t, reply.id);
    expect(d.map((x) => x.action)).toEqual(['reply.queued']);
    expect(d[0]).toMatchObject({ actor: 'owner key', detail: { reason: 'no_active_autonomy_grant', autonomy_level: 0, suggestion_id: r.json.suggestion_id, via: 'send' } });
    expect((await eventsOf(env, t.org.id, reply.id)).map((e) => e.kind)).toEqual(['lead.replied']);
  });

  it('level 1: 202 reason review_required_at_autonomy_level_1, and the level is in the Decision Trail', async () => {
    const t = await newTenant(env);
    const key = await keyAt(t, 1);
    const { reply } = await t.reply();
    const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'Happy to talk Tuesday.' } });
    expect(r.status).toBe(202);
    expect(r.json).toMatchObject({ status: 'queued_for_review', reason: 'review_required_at_autonomy_level_1', replaced: false });
    const [queued] = await trail(t, reply.id);
    expect(queued).toMatchObject({ action: 'reply.queued', actor: 'level 1 key', detail: { autonomy_level: 1, reason: 'review_required_at_autonomy_level_1' } });
    expect(await outbox(t)).toEqual([]);
  });

  it.each([2, 3])('level %i: 200 sent with both shapes merged; outbox, thread, reply.sent event and Decision Trail', async (level) => {
    const t = await newTenant(env);
    const key = await keyAt(t, level);
    const { reply } = await t.reply({ from_email: 'dana@prospect.io' });
    const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'Great, I booked Tuesday 10:00.' } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ status: 'sent', reply_id: reply.id, sent: true, to_email: 'dana@prospect.io', learned: false, sent_at: expect.stringMatching(ISO) });
    expect(await outbox(t)).toEqual([{ id: expect.any(String), reply_id: reply.id, to_email: 'dana@prospect.io', body: 'Great, I booked Tuesday 10:00.', sent_at: r.json.sent_at }]);
    const thread = (await t.call('GET', `/v1/replies/${reply.id}`)).json;
    expect(thread.thread.at(-1)).toEqual({ role: 'outbound', content: 'Great, I booked Tuesday 10:00.' });
    expect(thread.thread_length).toBe(2);
    const evs = await eventsOf(env, t.org.id, reply.id);
    expect(evs.map((e) => e.kind)).toEqual(['lead.replied', 'reply.sent']);
    expect(evs[1].data).toMatchObject({ reply_id: reply.id, to_email: 'dana@prospect.io', body: 'Great, I booked Tuesday 10:00.', sent_at: r.json.sent_at });
    const d = await trail(t, reply.id);
    expect(d.map((x) => x.action)).toEqual(['reply.sent']);
    expect(d[0].detail).toMatchObject({ autonomy_level: level, provider: 'outbox', to_email: 'dana@prospect.io', learned: false, key_name: `level ${level} key` });
    expect((await t.call('GET', '/v1/replies?status=queued')).json.replies).toEqual([]);
  });
});

describe('a queued draft', () => {
  it('send again: 202 replaced, same suggestion_id, latest body wins; one draft in the queue', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    const first = await t.call('POST', `/v1/replies/${reply.id}/send`, { body: { body: 'first draft' } });
    const second = await t.call('POST', `/v1/replies/${reply.id}/send`, { body: { body: 'second draft' } });
    expect(second.status).toBe(202);
    expect(second.json).toEqual({ status: 'queued_for_review', reply_id: reply.id, reason: 'no_active_autonomy_grant', suggestion_id: first.json.suggestion_id, replaced: true });
    const q = (await t.call('GET', '/v1/replies?status=queued')).json;
    expect(q.replies).toHaveLength(1);
    expect(q.replies[0]).toMatchObject({ reply_id: reply.id, suggestion_id: first.json.suggestion_id, body: 'second draft' });
    expect((await trail(t, reply.id)).map((x) => x.action)).toEqual(['reply.queued', 'reply.draft_replaced']);
  });

  it('send again from a level 2 key: the pending draft is replaced, not bypassed (reason draft_pending_review)', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    const first = await t.call('POST', `/v1/replies/${reply.id}/send`, { body: { body: 'agent draft' } });
    const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { key: await keyAt(t, 2), body: { body: 'trusted rewrite' } });
    expect(r.status).toBe(202);
    expect(r.json).toMatchObject({ reason: 'draft_pending_review', suggestion_id: first.json.suggestion_id, replaced: true });
    expect(await outbox(t)).toEqual([]);
  });

  it('approve: sent with the latest body, approver recorded, reply.approved and reply.sent events', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply({ from_email: 'lee@prospect.io' });
    const queued = await t.call('POST', `/v1/replies/${reply.id}/send`, { body: { body: 'v1' } });
    await t.call('POST', `/v1/replies/${reply.id}/send`, { body: { body: 'v2, final' } });
    const reviewer = await t.addKey({ name: 'review desk', scopes: ['replies.approve'] });
    const r = await t.call('POST', `/v1/replies/${reply.id}/approve`, { key: reviewer, body: { approver: 'Maria (account manager)' } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      status: 'sent',
      reply_id: reply.id,
      sent: true,
      to_email: 'lee@prospect.io',
      learned: false,
      sent_at: expect.stringMatching(ISO),
      suggestion_id: queued.json.suggestion_id,
      approver: 'Maria (account manager)',
    });
    expect((await outbox(t)).map((m) => m.body)).toEqual(['v2, final']);
    const evs = await eventsOf(env, t.org.id, reply.id);
    expect(evs.map((e) => e.kind).sort()).toEqual(['lead.replied', 'reply.approved', 'reply.sent']);
    expect(evs.find((e) => e.kind === 'reply.approved')!.data).toMatchObject({ approver: 'Maria (account manager)', suggestion_id: queued.json.suggestion_id });
    expect(evs.find((e) => e.kind === 'reply.sent')!.data).toMatchObject({ approver: 'Maria (account manager)', body: 'v2, final' });
    const d = await trail(t, reply.id);
    expect(d.map((x) => x.action).slice(0, 2)).toEqual(['reply.queued', 'reply.draft_replaced']);
    expect(d.map((x) => x.action).slice(2).sort()).toEqual(['reply.approved', 'reply.sent']);
    const approved = d.find((x) => x.action === 'reply.approved')!;
    expect(approved).toMatchObject({ actor: 'Maria (account manager)', detail: { approver: 'Maria (account manager)', key_name: 'review desk', via: 'approve' } });
    expect((await t.call('GET', '/v1/replies?status=queued')).json.replies).toEqual([]);
  });

  it('reject: the draft is removed, the reply stays unanswered, nothing is sent; a later send queues afresh', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    const queued = await t.call('POST', `/v1/replies/${reply.id}/send`, { body: { body: 'too pushy' } });
    const r = await t.call('POST', `/v1/replies/${reply.id}/reject`, { body: { approver: 'Maria', reason: 'tone is too pushy' } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ status: 'rejected', reply_id: reply.id, suggestion_id: queued.json.suggestion_id, approver: 'Maria', reason: 'tone is too pushy' });
    expect((await t.call('GET', '/v1/replies?status=queued')).json.replies).toEqual([]);
    expect(await outbox(t)).toEqual([]);
    const d = await trail(t, reply.id);
    expect(d.at(-1)).toMatchObject({ action: 'reply.rejected', actor: 'Maria', detail: { reason: 'tone is too pushy', suggestion_id: queued.json.suggestion_id } });
    const again = await t.call('POST', `/v1/replies/${reply.id}/send`, { body: { body: 'softer' } });
    expect(again.json).toMatchObject({ status: 'queued_for_review', replaced: false });
    expect(again.json.suggestion_id).not.toBe(queued.json.suggestion_id);
  });
});

describe('an unanswered reply: skip', () => {
  it('records the decision and sends nothing; skipping twice is 409 already_skipped', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    const r = await t.call('POST', `/v1/replies/${reply.id}/skip`, { body: { reason: 'prospect answered by phone' } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ status: 'skipped', reply_id: reply.id, reason: 'prospect answered by phone' });
    expect(await trail(t, reply.id)).toEqual([expect.objectContaining({ action: 'reply.skipped', actor: 'owner key', detail: expect.objectContaining({ reason: 'prospect answered by phone' }) })]);
    expect(await outbox(t)).toEqual([]);
    const again = await t.call('POST', `/v1/replies/${reply.id}/skip`, { body: { reason: 'again' } });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('already_skipped');
  });

  it('a skipped reply can still be answered later, through governance', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    await t.call('POST', `/v1/replies/${reply.id}/skip`, { body: { reason: 'later' } });
    const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { key: await keyAt(t, 2), body: { body: 'Coming back to this' } });
    expect(r.status).toBe(200);
    expect((await outbox(t)).map((m) => m.body)).toEqual(['Coming back to this']);
  });
});

describe('a sent reply', () => {
  it('send again: 409 already_sent, nothing sent, the refusal is in the Decision Trail', async () => {
    const t = await newTenant(env);
    const key = await keyAt(t, 2);
    const { reply } = await t.reply();
    expect((await t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: 'once' } })).status).toBe(200);
    for (const k of [key, t.key]) {
      const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { key: k, body: { body: 'twice' } });
      expect(r.status).toBe(409);
      expect(r.json).toEqual({ error: { code: 'already_sent', message: expect.stringContaining('already sent') } });
    }
    expect((await outbox(t)).map((m) => m.body)).toEqual(['once']);
    const d = await trail(t, reply.id);
    expect(d.map((x) => x.action)).toEqual(['reply.sent', 'send.blocked', 'send.blocked']);
    expect(d[1].detail).toMatchObject({ code: 'already_sent' });
  });
});

describe('learning from an edited suggestion (core §4 rule 3)', () => {
  const original = 'Hi Pat, thanks for getting back to me. Would Tuesday at 10 work for a quick call?';
  const edited = 'Hi Pat, thanks! Does Tuesday 10:00 CET work for a 20 minute call?';

  it('level 2: learned true, the edit distance in the Decision Trail, a learned_examples row for the client', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply({ body: 'Sounds good, can we schedule a call?\n\nOn Mon, Jan 5, 2026 at 9:00 AM Sam <sam@agency.com> wrote:\n> Hi Pat, quick question' });
    const r = await t.call('POST', `/v1/replies/${reply.id}/send`, { key: await keyAt(t, 2), body: { body: edited, original_suggestion: original, edited: true } });
    expect(r.json).toMatchObject({ status: 'sent', learned: true });
    const [sent] = await trail(t, reply.id);
    expect(sent.detail).toMatchObject({ edit_distance: distance(original, edited), edited: true, learned: true });
    const rows = await env.services.db.select().from(learnedExamples).where(and(eq(learnedExamples.orgId, t.org.id)));
    expect(rows).toEqual([
      expect.objectContaining({ clientId: t.client.id, medium: 'email', replyText: 'Sounds good, can we schedule a call?', original, edited, classification: reply.classification }),
    ]);
  });

  it('not learned without edited: true, or when the "edit" changed nothing', async () => {
    const t = await newTenant(env);
    const key = await keyAt(t, 2);
    const a = (await t.reply()).reply;
    const b = (await t.reply()).reply;
    const r1 = await t.call('POST', `/v1/replies/${a.id}/send`, { key, body: { body: edited, original_suggestion: original } });
    const r2 = await t.call('POST', `/v1/replies/${b.id}/send`, { key, body: { body: original, original_suggestion: original, edited: true } });
    expect([r1.json.learned, r2.json.learned]).toEqual([false, false]);
    expect((await trail(t, a.id))[0].detail).toMatchObject({ edit_distance: distance(original, edited), edited: false });
    expect(await env.services.db.select().from(learnedExamples).where(eq(learnedExamples.orgId, t.org.id))).toEqual([]);
  });

  it('a queued edit is learned when it is approved and sent, not when queued', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    const q = await t.call('POST', `/v1/replies/${reply.id}/send`, { body: { body: edited, original_suggestion: original, edited: true } });
    expect(q.status).toBe(202);
    expect(await env.services.db.select().from(learnedExamples).where(eq(learnedExamples.orgId, t.org.id))).toEqual([]);
    const a = await t.call('POST', `/v1/replies/${reply.id}/approve`, { body: { approver: 'Maria' } });
    expect(a.json).toMatchObject({ status: 'sent', learned: true });
    expect(await env.services.db.select().from(learnedExamples).where(eq(learnedExamples.orgId, t.org.id))).toHaveLength(1);
  });
});
