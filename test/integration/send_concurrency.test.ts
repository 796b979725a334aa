// Exactly-once sending on real PostgreSQL (Neon driver, pool of 10): concurrent sends and approvals of one reply
// serialise on the reply's row lock, so the provider is called once; the others see the sent reply (409) or, when
// they came before the approval, replaced the draft (202). PGlite has one connection and cannot show this.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drafts } from '../../schema';
import { startTestEnv, TIER, type TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';
import { keyAt, outbox, startReceiver, trail } from '../api/send_helpers';

let env: TestEnv;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  if (TIER !== 'integration') return;
  env = await startTestEnv();
  // Each provider call takes 300 ms, so the ten requests surely overlap while the first holds the lock.
  receiver = await startReceiver(200, 300);
});
afterAll(async () => {
  await receiver?.close();
  await env?.close();
});

const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

describe.skipIf(TIER !== 'integration')('concurrent sends of one reply (real PostgreSQL)', () => {
  it('10 level-2 sends through the outbox: one 200, nine 409 already_sent, one outbox row', async () => {
    const t = await newTenant(env);
    const keys = await Promise.all(Array.from({ length: 10 }, (_, i) => keyAt(t, 2 + (i % 2))));
    const { reply } = await t.reply();
    const results = await Promise.all(keys.map((key, i) => t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: `attempt ${i}` } })));
    expect(tally(results.map((r) => r.status))).toEqual({ 200: 1, 409: 9 });
    for (const r of results.filter((x) => x.status === 409)) expect(r.json.error.code).toBe('already_sent');
    const messages = await outbox(t, reply.id);
    expect(messages).toHaveLength(1);
    expect(messages[0].body).toBe(`attempt ${results.findIndex((r) => r.status === 200)}`);
    const actions = (await trail(t, reply.id)).map((d) => d.action);
    expect(actions.filter((a) => a === 'reply.sent')).toHaveLength(1);
    expect(actions.filter((a) => a === 'send.blocked')).toHaveLength(9);
  });

  it('10 approvals and sends racing on a queued draft through the http provider: exactly one provider call', async () => {
    const t = await newTenant(env);
    await t.admin('PUT', `/admin/v1/orgs/${t.org.id}/sending-provider`, { kind: 'http', url: receiver.url });
    const { reply } = await t.reply();
    expect((await t.call('POST', `/v1/replies/${reply.id}/send`, { body: { body: 'draft v1' } })).status).toBe(202);
    const approvers = await Promise.all(Array.from({ length: 6 }, (_, i) => t.addKey({ name: `reviewer ${i}`, scopes: ['replies.approve'] })));
    const senders = await Promise.all(Array.from({ length: 4 }, () => keyAt(t, 2)));
    receiver.hits.length = 0;
    const results = await Promise.all([
      ...approvers.map((key, i) => t.call('POST', `/v1/replies/${reply.id}/approve`, { key, body: { approver: `Reviewer ${i}` } })),
      ...senders.map((key, i) => t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: `rewrite ${i}` } })),
    ]);
    const statuses = results.map((r) => r.status);
    expect(receiver.hits.filter((h) => JSON.parse(h.body).reply_id === reply.id)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    // Anything else is a send that replaced the draft before the approval (202) or came after it (409).
    expect(statuses.every((s) => s === 200 || s === 202 || s === 409)).toBe(true);
    expect(results.filter((r) => r.status === 409).every((r) => r.json.error.code === 'already_sent')).toBe(true);
    // What was sent is the draft as it stood when the approval took the lock.
    const sentBody = JSON.parse(receiver.hits[0].body).body;
    expect(['draft v1', ...senders.map((_, i) => `rewrite ${i}`)]).toContain(sentBody);
    expect(await env.services.db.select().from(drafts).where(eq(drafts.replyId, reply.id))).toEqual([]);
    const actions = (await trail(t, reply.id)).map((d) => d.action);
    expect(actions.filter((a) => a === 'reply.sent')).toHaveLength(1);
    expect(actions.filter((a) => a === 'reply.approved')).toHaveLength(1);
  });

  it('10 level-0 sends of one unanswered reply: one draft, one suggestion_id, nine replacements', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => t.call('POST', `/v1/replies/${reply.id}/send`, { body: { body: `draft ${i}` } })));
    expect(results.every((r) => r.status === 202)).toBe(true);
    expect(results.filter((r) => r.json.replaced === false)).toHaveLength(1);
    expect(new Set(results.map((r) => r.json.suggestion_id)).size).toBe(1);
    expect(await env.services.db.select().from(drafts).where(eq(drafts.replyId, reply.id))).toHaveLength(1);
  });
});
