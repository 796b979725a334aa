// operator §3 follow-up admin routes and the job that runs a due follow-up through the queue port: planned → sent
// through the governed-send core (limits, cooldown, Decision Trail); blocked → recorded and tried again later;
// review → waits for a person; cancelled → nothing.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, replies } from '../../schema';
import { runFollowup, sweepFollowups, MAX_FOLLOWUP_ATTEMPTS } from '../../lib/followups/send_due';
import { TIER, type TestEnv } from '../helpers/harness';
import { startWebhookEnv } from '../helpers/webhook_env';
import { newTenant } from '../helpers/tenant';
import { eventsOf, keyAt, outbox, startReceiver, trail } from './send_helpers';
import { byId, followupsOf, plan, runDue } from './followups_helpers';

let env: TestEnv;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  // A database of its own in the integration tier: running due jobs works on every organization's rows.
  env = await startWebhookEnv();
  // Refuses every message (429: certainly not sent), so a follow-up through it is retried.
  receiver = await startReceiver(429);
});
afterAll(async () => {
  await receiver.close();
  await env.close();
});

describe('admin routes', () => {
  it('POST plans (201 with the spec fields), GET lists by lead, another org’s reply is 404, bad input 400', async () => {
    const t = await newTenant(env);
    const { reply, leadId } = await t.reply();
    const f = await plan(t, reply.id, { kind: 'checkin', now: env.clock.now() });
    expect(f).toMatchObject({ lead_id: leadId, kind: 'checkin', status: 'planned', reason: null });
    expect(Object.keys(f)).toEqual(expect.arrayContaining(['id', 'lead_id', 'kind', 'due_at', 'status', 'reason']));
    expect((await followupsOf(t, leadId)).map((x) => x.id)).toEqual([f.id]);
    expect(await followupsOf(t, '00000000-0000-4000-8000-000000000000')).toEqual([]);

    const other = await newTenant(env);
    const foreign = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/followups`, {
      reply_id: (await other.reply()).reply.id,
      kind: 'followup',
      due_at: new Date().toISOString(),
      body: 'x',
    });
    expect([foreign.status, foreign.json.error.code]).toEqual([404, 'not_found']);
    for (const body of [{ reply_id: reply.id, kind: 'nudge', due_at: new Date().toISOString(), body: 'x' }, { reply_id: reply.id, kind: 'followup', due_at: 'soon', body: 'x' }]) {
      expect((await t.admin('POST', `/admin/v1/orgs/${t.org.id}/followups`, body)).status).toBe(400);
    }
    expect((await t.admin('GET', `/admin/v1/orgs/${t.org.id}/followups`, undefined, 'wrong-token')).status).toBe(401);
  });
});

describe('running due follow-ups', () => {
  it('not before due_at; at due_at sent through the governed send: outbox, thread, trail, reply.sent', async () => {
    const t = await newTenant(env);
    const { reply, leadId } = await t.reply();
    const f = await plan(t, reply.id, { now: env.clock.now(), dueInMs: 600_000, body: 'Following up on pricing.' });
    await runDue(env, 300_000);
    expect((await byId(t, f.id)).status).toBe('planned');
    await runDue(env, 301_000);
    expect(await byId(t, f.id)).toMatchObject({ status: 'sent', attempts: 1, next_attempt_at: null });
    expect((await outbox(t, reply.id)).map((m) => m.body)).toEqual(['Following up on pricing.']);
    // Rows of one transaction share their time, so the trail's order among them is not defined: compare as sets.
    const actions = (await trail(t, reply.id)).map((d) => `${d.action} by ${d.actor}`);
    expect(actions.sort()).toEqual(['followup.planned by owner', 'followup.sent by owner (planned follow-up)', 'reply.sent by owner (planned follow-up)']);
    expect((await eventsOf(env, t.org.id, reply.id)).map((e) => e.kind)).toContain('reply.sent');
    expect(leadId).toBe(f.lead_id);
    // At least once: the job running again changes nothing.
    await runFollowup(env.services, f.id);
    expect(await outbox(t, reply.id)).toHaveLength(1);
  });

  it('a follow-up after our answer keeps the answer’s sent_at', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    expect((await t.call('POST', `/v1/replies/${reply.id}/send`, { key: await keyAt(t, 2), body: { body: 'Here is the deck.' } })).status).toBe(200);
    const [answered] = await env.services.db.select().from(replies).where(eq(replies.id, reply.id));
    // Past the lead's 15-minute cooldown (embedded clock; Upstash keeps real time, so there the cooldown blocks).
    const f = await plan(t, reply.id, { now: env.clock.now(), dueInMs: 16 * 60_000 });
    await runDue(env, 17 * 60_000);
    if (TIER === 'integration') return expect((await byId(t, f.id)).status).toBe('planned');
    expect((await byId(t, f.id)).status).toBe('sent');
    const [after] = await env.services.db.select().from(replies).where(eq(replies.id, reply.id));
    expect([after.status, after.sentAt?.toISOString()]).toEqual(['sent', answered.sentAt?.toISOString()]);
    expect((await outbox(t, reply.id)).map((m) => m.body).sort()).toEqual(['Here is the deck.', 'Just checking in: did you get a chance to look at the proposal?']);
  });

  it('blocked by the lead cooldown: recorded, kept planned, tried again after the cooldown', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    const f = await plan(t, reply.id, { now: env.clock.now(), dueInMs: 60_000 });
    expect((await t.call('POST', `/v1/replies/${reply.id}/send`, { key: await keyAt(t, 2), body: { body: 'Answer' } })).status).toBe(200);
    await runDue(env, 61_000);
    const blocked = await byId(t, f.id);
    expect(blocked).toMatchObject({ status: 'planned', attempts: 1 });
    expect(blocked.reason).toContain('lead_recently_contacted');
    expect(Date.parse(blocked.next_attempt_at!)).toBeGreaterThan(env.clock.now().getTime() + 14 * 60_000);
    const actions = (await trail(t, reply.id)).map((d) => d.action);
    expect(actions.slice(-2).sort()).toEqual(['followup.deferred', 'send.blocked']);
    expect(await outbox(t, reply.id)).toHaveLength(1);
    if (TIER === 'integration') return; // Upstash's cooldown runs on real time
    await runDue(env, 15 * 60_000);
    expect((await byId(t, f.id)).status).toBe('sent');
    expect(await outbox(t, reply.id)).toHaveLength(2);
  });

  it('a provider that refuses (429, not_sent): retried with backoff and recorded; after the last try it waits for a person', async () => {
    const t = await newTenant(env);
    await t.admin('PUT', `/admin/v1/orgs/${t.org.id}/sending-provider`, { kind: 'http', url: receiver.url });
    const { reply } = await t.reply();
    const f = await plan(t, reply.id, { now: env.clock.now(), dueInMs: 1_000 });
    await runDue(env, 2_000);
    const first = await byId(t, f.id);
    expect(first).toMatchObject({ status: 'planned', attempts: 1 });
    expect(first.reason).toContain('provider_error');
    expect((await trail(t, reply.id)).map((d) => [d.action, d.detail.outcome ?? null]).filter(([a]) => a !== 'followup.planned').sort()).toEqual([
      ['followup.deferred', null],
      ['send.provider_failed', 'not_sent'],
    ]);
    // Upstash counts the 5-per-minute send rate in real time: six tries within a second would meet that limit
    // first. The embedded tier steps its clock an hour per try.
    if (TIER === 'integration') return;
    for (let i = 2; i <= MAX_FOLLOWUP_ATTEMPTS; i++) await runDue(env, 3_600_000);
    const final = await byId(t, f.id);
    expect(final).toMatchObject({ status: 'review', attempts: MAX_FOLLOWUP_ATTEMPTS });
    const actions = (await trail(t, reply.id)).map((d) => d.action);
    expect(actions.filter((a) => a === 'send.provider_failed')).toHaveLength(MAX_FOLLOWUP_ATTEMPTS);
    expect(actions.filter((a) => a === 'followup.deferred')).toHaveLength(MAX_FOLLOWUP_ATTEMPTS - 1);
    expect(actions.filter((a) => a === 'followup.review')).toHaveLength(1);
  });

  it('a provider that may have delivered it (500, unknown): review after one attempt, never retried, the cooldown kept', async () => {
    const t = await newTenant(env);
    const failing = await startReceiver(500);
    try {
      await t.admin('PUT', `/admin/v1/orgs/${t.org.id}/sending-provider`, { kind: 'http', url: failing.url });
      const { reply } = await t.reply();
      const f = await plan(t, reply.id, { now: env.clock.now(), dueInMs: 1_000 });
      await runDue(env, 2_000);
      const reviewed = await byId(t, f.id);
      expect(reviewed).toMatchObject({ status: 'review', attempts: 1, next_attempt_at: null });
      expect(reviewed.reason).toBe(
        'the sending provider did not confirm the message (HTTP 500: mail server on fire); it may have been delivered, so a person must check before it is sent again',
      );
      expect(failing.hits).toHaveLength(1);
      const rows = await trail(t, reply.id);
      expect(rows.find((d) => d.action === 'send.provider_failed')!.detail).toMatchObject({ provider: 'http', outcome: 'unknown' });
      expect(rows.find((d) => d.action === 'followup.review')!.detail).toMatchObject({ followup_id: f.id, code: 'provider_error', outcome: 'unknown', reason: reviewed.reason });
      expect(rows.map((d) => d.action)).not.toContain('followup.deferred');
      const [after] = await env.services.db.select().from(replies).where(eq(replies.id, reply.id));
      expect(after.status).not.toBe('sent');
      // The prospect may have it: the lead's cooldown stands, so a send to them now is refused before the service.
      const now = await t.call('POST', `/v1/replies/${reply.id}/send`, { key: await keyAt(t, 2), body: { body: 'again' } });
      expect([now.status, now.json.error.code]).toEqual([429, 'lead_recently_contacted']);
      // Nothing brings it back by itself: later runs and the sweep leave it waiting, and the service is not asked again.
      await runDue(env, 3_600_000);
      await sweepFollowups(env.services, { graceMs: 0 });
      expect((await byId(t, f.id)).status).toBe('review');
      expect(failing.hits).toHaveLength(1);
    } finally {
      await failing.close();
    }
  });

  it('a draft waiting in the review queue for the same reply sends the follow-up to review', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    expect((await t.call('POST', `/v1/replies/${reply.id}/send`, { key: await keyAt(t, 0), body: { body: 'draft' } })).status).toBe(202);
    const f = await plan(t, reply.id, { now: env.clock.now(), dueInMs: 1_000 });
    await runDue(env, 2_000);
    expect((await byId(t, f.id)).status).toBe('review');
    expect(await outbox(t, reply.id)).toEqual([]);
  });

  it('cancelled does nothing; sent and cancelled are final (409)', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    const f = await plan(t, reply.id, { now: env.clock.now(), dueInMs: 1_000 });
    expect((await t.admin('PATCH', `/admin/v1/orgs/${t.org.id}/followups/${f.id}`, { status: 'cancelled' })).status).toBe(200);
    await runDue(env, 2_000);
    expect(await outbox(t, reply.id)).toEqual([]);
    const again = await t.admin('PATCH', `/admin/v1/orgs/${t.org.id}/followups/${f.id}`, { status: 'planned' });
    expect([again.status, again.json.error.code]).toEqual([409, 'conflict']);
  });

  it('the sweep runs a planned follow-up whose job went missing (a lost publish)', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    const f = await plan(t, reply.id, { now: env.clock.now(), dueInMs: 1_000 });
    await env.services.db.delete(jobs).where(eq(jobs.dedupeKey, `followup:${f.id}:${Date.parse(f.due_at)}`));
    await runDue(env, 2_000);
    expect((await byId(t, f.id)).status).toBe('planned');
    env.clock.advance(61_000);
    expect(await sweepFollowups(env.services)).toBeGreaterThanOrEqual(1);
    expect((await byId(t, f.id)).status).toBe('sent');
  });
});
