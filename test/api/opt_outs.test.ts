// Opt-outs honoured: a reply asking not to be contacted puts the address on the organization's do-not-contact
// list (with a Decision Trail row, in the ingestion transaction); every send, approval and follow-up to it is then
// refused with 409 recipient_opted_out (recorded, no provider call); the owner can list and lift entries.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runFollowup } from '../../lib/followups/send_due';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant, type Tenant } from '../helpers/tenant';
import { byId, plan } from './followups_helpers';
import { keyAt, outbox, startReceiver, trail } from './send_helpers';

let env: TestEnv;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  env = await startTestEnv();
  receiver = await startReceiver();
});
afterEach(() => {
  receiver.hits.length = 0;
});
afterAll(async () => {
  await receiver.close();
  await env.close();
});

let seq = 0;
const address = () => `ana.${Date.now().toString(36)}.${++seq}@prospect.io`;

/** A prospect's reply through the admin ingestion route (the path provider webhooks share). */
async function ingest(t: Tenant, from_email: string, body: string, campaign_id = t.campaign.id) {
  const r = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/inbound-replies`, { campaign_id, from_email, from_name: 'Ana', body });
  expect(r.status, r.text).toBe(201);
  return { replyId: r.json.reply.id as string, leadId: r.json.lead_id as string };
}

const OPT_OUT = 'Please remove me from your list';
const optOuts = async (t: Tenant) => {
  const r = await t.admin('GET', `/admin/v1/orgs/${t.org.id}/opt-outs`);
  expect(r.status, r.text).toBe(200);
  return r.json.opt_outs as Array<{ email: string; reason: string; phrase: string | null; reply_id: string | null; lead_id: string | null; created_at: string }>;
};
const lift = (t: Tenant, email: string, orgId = t.org.id) => t.admin('DELETE', `/admin/v1/orgs/${orgId}/opt-outs/${encodeURIComponent(email)}`);
const send = async (t: Tenant, replyId: string, level: number, body = 'Thanks Ana, here is the deck.') =>
  t.call('POST', `/v1/replies/${replyId}/send`, { key: await keyAt(t, level), body: { body } });
const queued = async (t: Tenant) => (await t.call('GET', '/v1/replies?status=queued')).json.replies.map((r: any) => r.reply_id) as string[];
const useHttp = (t: Tenant) => t.admin('PUT', `/admin/v1/orgs/${t.org.id}/sending-provider`, { kind: 'http', url: receiver.url });

function expectOptedOut(r: { status: number; json: any; text: string }, email: string) {
  expect(r.status, r.text).toBe(409);
  expect(r.json.error.code).toBe('recipient_opted_out');
  expect(r.json.error.message).toContain(`${email} opted out`);
}

describe('recording an opt-out at ingestion', () => {
  it('a reply asking to be removed lists the address org-wide, with an opt_out.recorded row; GET lists it', async () => {
    const t = await newTenant(env);
    const email = address();
    const { replyId, leadId } = await ingest(t, email.toUpperCase(), `Hi,\n\n${OPT_OUT}.\n\nAna`);
    const list = await optOuts(t);
    expect(list).toEqual([{ email, reason: 'opt_out', phrase: 'please remove me from your list', reply_id: replyId, lead_id: leadId, created_by: 'prospect', created_at: expect.any(String) }]);
    const recorded = (await trail(t, replyId)).filter((d) => d.action === 'opt_out.recorded');
    expect(recorded).toEqual([expect.objectContaining({ actor: 'prospect', lead_id: leadId, detail: { email, phrase: 'please remove me from your list' } })]);

    // Asking again changes and records nothing; other replies list nothing.
    const again = await ingest(t, email, 'Unsubscribe.');
    expect((await trail(t, again.replyId)).map((d) => d.action)).not.toContain('opt_out.recorded');
    await ingest(t, address(), "I don't want to unsubscribe, but can we talk on Thursday?");
    await ingest(t, address(), 'Thursday works.\n\nOn Tue, Mar 4, 2025 at 9:12 AM Sam <sam@agency.io> wrote:\n> Reply "unsubscribe" to stop hearing from us.');
    expect((await optOuts(t)).map((o) => o.email)).toEqual([email]);
  });

  it('newest first; another organization sees none of them', async () => {
    const t = await newTenant(env);
    const [first, second] = [address(), address()];
    await ingest(t, first, 'Bitte austragen.');
    env.clock.advance(1000);
    await ingest(t, second, 'Merci de me désinscrire.');
    expect((await optOuts(t)).map((o) => [o.email, o.phrase])).toEqual([
      [second, 'merci de me desinscrire'],
      [first, 'bitte austragen'],
    ]);
    expect(await optOuts(await newTenant(env))).toEqual([]);
    const page = await t.admin('GET', `/admin/v1/orgs/${t.org.id}/opt-outs?limit=1&offset=1`);
    expect(page.json.opt_outs.map((o: any) => o.email)).toEqual([first]);
    expect((await t.admin('GET', `/admin/v1/orgs/${t.org.id}/opt-outs?limit=0`)).status).toBe(400);
  });
});

describe('sending to an address that opted out', () => {
  it('level 2: 409 recipient_opted_out, send.blocked recorded, nothing in the outbox, no send slot used', async () => {
    const t = await newTenant(env);
    const email = address();
    const earlier = await ingest(t, email, 'Sounds good, what does it cost?');
    const { replyId } = await ingest(t, email, OPT_OUT);
    const key = await keyAt(t, 2);
    // More attempts than the key's 5 sends a minute: a refused send must not use up the key's rate.
    for (let i = 0; i < 6; i++) {
      expectOptedOut(await t.call('POST', `/v1/replies/${earlier.replyId}/send`, { key, body: { body: `Answer ${i}` } }), email);
    }
    expectOptedOut(await t.call('POST', `/v1/replies/${replyId}/send`, { key, body: { body: 'Sorry to see you go' } }), email);
    expect(await outbox(t)).toEqual([]);
    const blocked = (await trail(t, earlier.replyId)).filter((d) => d.action === 'send.blocked');
    expect(blocked).toHaveLength(6);
    expect(blocked[0].detail).toMatchObject({ via: 'send', code: 'recipient_opted_out', autonomy_level: 2 });
    expect((await t.call('GET', `/v1/replies/${earlier.replyId}`)).json.thread.map((m: any) => m.role)).toEqual(['reply', 'reply']);

    // Lifted, the same key sends at once.
    expect((await lift(t, email)).status).toBe(200);
    const sent = await t.call('POST', `/v1/replies/${earlier.replyId}/send`, { key, body: { body: 'Here is the pricing.' } });
    expect(sent.status, sent.text).toBe(200);
    expect((await outbox(t)).map((m) => [m.to_email, m.body])).toEqual([[email, 'Here is the pricing.']]);
  });

  it('no provider call with the http provider', async () => {
    const t = await newTenant(env);
    expect((await useHttp(t)).status).toBe(200);
    const email = address();
    const { replyId } = await ingest(t, email, 'Stop emailing me.');
    expectOptedOut(await send(t, replyId, 2), email);
    expect(receiver.hits).toEqual([]);
    const other = await ingest(t, address(), 'Sounds good, send the deck.');
    expect((await send(t, other.replyId, 2)).status).toBe(200);
    expect(receiver.hits).toHaveLength(1);
  });

  it('level 0 and 1: 409, no draft queued', async () => {
    const t = await newTenant(env);
    const email = address();
    const { replyId } = await ingest(t, email, 'Graag uitschrijven.');
    expectOptedOut(await send(t, replyId, 0), email);
    expectOptedOut(await send(t, replyId, 1), email);
    expect(await queued(t)).toEqual([]);
    const actions = (await trail(t, replyId)).map((d) => `${d.action}:${d.detail.code ?? ''}`);
    expect(actions.sort()).toEqual(['opt_out.recorded:', 'send.blocked:recipient_opted_out', 'send.blocked:recipient_opted_out']);
  });

  it('a draft queued before the opt-out cannot be approved (or replaced); the reviewer can still reject it', async () => {
    const t = await newTenant(env);
    const email = address();
    const { replyId } = await ingest(t, email, 'Interesting, tell me more.');
    expect((await send(t, replyId, 0)).status).toBe(202);
    expect(await queued(t)).toEqual([replyId]);
    await ingest(t, email, 'On second thought: unsubscribe me.');
    expectOptedOut(await t.call('POST', `/v1/replies/${replyId}/approve`, { body: { approver: 'Maria' } }), email);
    expectOptedOut(await send(t, replyId, 0, 'an edited draft'), email);
    expect(await outbox(t)).toEqual([]);
    const blocked = (await trail(t, replyId)).filter((d) => d.action === 'send.blocked').map((d) => d.detail);
    expect(blocked).toHaveLength(2);
    expect(blocked).toEqual(expect.arrayContaining([expect.objectContaining({ via: 'approve', code: 'recipient_opted_out' }), expect.objectContaining({ via: 'send', code: 'recipient_opted_out' })]));
    expect(await queued(t)).toEqual([replyId]);
    expect((await t.call('POST', `/v1/replies/${replyId}/reject`, { body: { approver: 'Maria', reason: 'prospect opted out' } })).status).toBe(200);
  });

  it("org-wide: a reply from the address in another client's campaign is refused too; another organization is unaffected", async () => {
    const t = await newTenant(env);
    const email = address();
    await ingest(t, email, OPT_OUT);
    const otherClient = await t.addClient();
    const campaign = await t.addCampaign(otherClient.id);
    const there = await ingest(t, email, 'Sounds good, can we talk?', campaign.id);
    expectOptedOut(await send(t, there.replyId, 2), email);

    const u = await newTenant(env);
    const theirs = await ingest(u, email, 'Sounds good, can we talk?');
    expect((await send(u, theirs.replyId, 2)).status).toBe(200);
    expect(await optOuts(u)).toEqual([]);
  });
});

describe('planned follow-ups', () => {
  it('open follow-ups to the address are cancelled by the opt-out, and never sent', async () => {
    const t = await newTenant(env);
    const email = address();
    const { replyId, leadId } = await ingest(t, email, 'Maybe next quarter.');
    const f = await plan(t, replyId, { now: env.clock.now(), dueInMs: 1000 });
    const optOut = await ingest(t, email, OPT_OUT);
    expect(await byId(t, f.id)).toMatchObject({ status: 'cancelled', reason: `the recipient opted out (reply ${optOut.replyId})`, next_attempt_at: null });
    const cancelled = (await trail(t, replyId)).find((d) => d.action === 'followup.cancelled')!;
    expect(cancelled).toMatchObject({ actor: 'prospect', lead_id: leadId, detail: { followup_id: f.id, previous_status: 'planned', code: 'recipient_opted_out' } });
    env.clock.advance(2000);
    expect(await runFollowup(env.services, f.id)).toBe('skipped');
    expect(await outbox(t)).toEqual([]);
  });

  it('one planned after the opt-out is cancelled when due: not sent, not retried, recorded', async () => {
    const t = await newTenant(env);
    const email = address();
    const { replyId } = await ingest(t, email, 'Maybe next quarter.');
    const queuedReply = await ingest(t, email, 'Interesting, tell me more.');
    expect((await send(t, queuedReply.replyId, 0)).status).toBe(202);
    await ingest(t, email, OPT_OUT);
    const f = await plan(t, replyId, { now: env.clock.now(), dueInMs: 1000 });
    // A reply with a draft in review would send its follow-up to review: opted out, it is cancelled instead.
    const g = await plan(t, queuedReply.replyId, { now: env.clock.now(), dueInMs: 1000 });
    env.clock.advance(2000);
    expect(await runFollowup(env.services, f.id)).toBe('cancelled');
    expect(await runFollowup(env.services, g.id)).toBe('cancelled');
    for (const id of [f.id, g.id]) {
      const row = await byId(t, id);
      expect(row).toMatchObject({ status: 'cancelled', next_attempt_at: null });
      expect(row.reason).toMatch(/^not sent: recipient_opted_out \(.* opted out/);
    }
    const actions = (await trail(t, replyId)).map((d) => `${d.action}:${d.detail.code ?? ''}`);
    expect(actions.slice(-2).sort()).toEqual(['followup.cancelled:recipient_opted_out', 'send.blocked:recipient_opted_out']);
    expect((await trail(t, queuedReply.replyId)).at(-1)).toMatchObject({ action: 'followup.cancelled', detail: { code: 'recipient_opted_out', followup_id: g.id } });
    expect(await outbox(t)).toEqual([]);
    env.clock.advance(3_600_000);
    expect(await runFollowup(env.services, f.id)).toBe('skipped');
  });
});

describe('DELETE /admin/v1/orgs/{org_id}/opt-outs/{email}', () => {
  it('lifts the entry with an opt_out.lifted row; sends work again', async () => {
    const t = await newTenant(env);
    const email = address();
    const { replyId, leadId } = await ingest(t, email, OPT_OUT);
    const [listed] = await optOuts(t);
    env.clock.advance(1000);
    const r = await lift(t, email.toUpperCase());
    expect(r.status, r.text).toBe(200);
    expect(r.json.lifted).toEqual({ ...listed, lifted_at: expect.any(String) });
    expect(await optOuts(t)).toEqual([]);
    const lifted = (await trail(t, replyId)).find((d) => d.action === 'opt_out.lifted');
    expect(lifted).toMatchObject({ actor: 'admin', lead_id: leadId, detail: { email, reason: 'opt_out', listed_at: listed.created_at } });
    expect((await send(t, replyId, 2)).status).toBe(200);
    // A new request lists the address again.
    await ingest(t, email, 'Unsubscribe');
    expect((await optOuts(t)).map((o) => o.email)).toEqual([email]);
  });

  it('a literal "@" in the path works as well as %40', async () => {
    const t = await newTenant(env);
    const email = address();
    await ingest(t, email, OPT_OUT);
    expect((await t.admin('DELETE', `/admin/v1/orgs/${t.org.id}/opt-outs/${email}`)).status).toBe(200);
  });

  it('404 when not listed, already lifted, or listed by another organization; 400 for a malformed address', async () => {
    const t = await newTenant(env);
    const u = await newTenant(env);
    const email = address();
    await ingest(u, email, OPT_OUT);
    for (const r of [await lift(t, email), await lift(t, address())]) expect([r.status, r.json.error.code]).toEqual([404, 'not_found']);
    expect((await lift(t, email, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await optOuts(u)).map((o) => o.email)).toEqual([email]);
    expect((await lift(u, email)).status).toBe(200);
    expect((await lift(u, email)).status).toBe(404);
    for (const bad of ['not-an-address', 'a@b@c.io', 'ana%20@prospect.io']) {
      const r = await t.admin('DELETE', `/admin/v1/orgs/${t.org.id}/opt-outs/${bad}`);
      expect([r.status, r.json.error.code], bad).toEqual([400, 'validation_error']);
      expect(r.json.error.message).toMatch(/^email/);
    }
    expect((await t.admin('DELETE', `/admin/v1/orgs/${t.org.id}/opt-outs/${encodeURIComponent(email)}`, undefined, 'wrong-token')).status).toBe(401);
    expect((await t.admin('GET', `/admin/v1/orgs/${t.org.id}/opt-outs`, undefined, 'wrong-token')).status).toBe(401);
  });
});
