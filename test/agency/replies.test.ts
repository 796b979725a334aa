// The seven reply tools (agency-tools-and-bridge.md §4 "Reply tools", agency-operator.md §2): each through the tool
// server with the official SDK client and through its core REST route, with the same key and input giving the same
// JSON; the opt-in scopes (listing and refusal); the governed send with the key's autonomy level, the Decision
// Trail and the audit log; the core route's client_id filter; tenant isolation.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { and, asc, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateReport } from '../../lib/reports/generate_report';
import { auditLog } from '../../schema';
import { outbox, trail } from '../api/send_helpers';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { mcpClient, toolJson } from '../helpers/mcp';
import { newTenant, type Tenant } from '../helpers/tenant';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const REPLY_TOOLS = ['list_pending_replies', 'get_reply', 'send_reply', 'approve_reply', 'reject_reply', 'skip_reply', 'get_weekly_reports'];
const ALL_OPT_INS = ['replies.send', 'replies.approve', 'leads.read', 'reports.read'];

type Agency = { t: Tenant; key: string; mcp: Client };

/** An organization with the tool server on, an agency key with the reply opt-ins, and an SDK client for it. */
async function agency(opts: { scopes?: string[]; autonomy_level?: number; name?: string } = {}): Promise<Agency> {
  const t = await newTenant(env, { features: { agency_tools: true } });
  const key = await t.addKey({ name: opts.name ?? 'assistant', kind: 'agency', scopes: opts.scopes ?? ALL_OPT_INS, autonomy_level: opts.autonomy_level ?? 2 });
  return { t, key, mcp: await mcpClient(env, key, { ip: t.ip }) };
}

const tool = async (a: Agency, name: string, args: Record<string, unknown>) => {
  const r: any = await a.mcp.callTool({ name, arguments: args });
  return { isError: Boolean(r.isError), text: r.isError ? (r.content[0].text as string) : '', json: toolJson(r) };
};

/** Two answers for two replies in the same state: equal but for the fields that name the reply, draft or moment. */
const normal = (j: Record<string, unknown>) => {
  const out: Record<string, unknown> = { ...j };
  for (const k of ['reply_id', 'suggestion_id', 'sent_at', 'to_email']) if (k in out) out[k] = '·';
  return out;
};

const replyAudit = (orgId: string) =>
  env.services.db
    .select({ actor: auditLog.actor, action: auditLog.action, target: auditLog.target, detail: auditLog.detail })
    .from(auditLog)
    .where(and(eq(auditLog.orgId, orgId), like(auditLog.target, 'reply:%')))
    .orderBy(asc(auditLog.at), asc(auditLog.action));

describe('listing and scopes', () => {
  it('a key with the four opt-ins lists the seven reply tools with their annotations', async () => {
    const a = await agency();
    const { tools } = await a.mcp.listTools();
    const byName = new Map(tools.map((x) => [x.name, x]));
    for (const name of REPLY_TOOLS) expect(byName.has(name), name).toBe(true);
    expect(byName.get('get_reply')!.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.get('list_pending_replies')!.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.get('send_reply')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, openWorldHint: true });
    expect(byName.get('approve_reply')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, openWorldHint: true });
    expect(byName.get('skip_reply')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    expect(byName.get('send_reply')!.inputSchema).toMatchObject({ required: ['reply_id', 'body'], additionalProperties: false });
    // ?toolsets=replies narrows the list to exactly these.
    const narrowed = await mcpClient(env, a.key, { ip: a.t.ip, path: '/mcp?toolsets=replies' });
    expect((await narrowed.listTools()).tools.map((x) => x.name).sort()).toEqual([...REPLY_TOOLS].sort());
    await narrowed.close();
  });

  it('without the opt-ins no reply tool is listed, and each call answers insufficient_scope naming its scope; nothing is written', async () => {
    const a = await agency({ scopes: [] });
    const { reply } = await a.t.reply();
    const { tools } = await a.mcp.listTools();
    expect(tools.map((x) => x.name).filter((n) => REPLY_TOOLS.includes(n))).toEqual([]);
    expect(tools.map((x) => x.name)).toContain('get_account');
    const calls: Array<[string, Record<string, unknown>, string]> = [
      ['list_pending_replies', {}, 'replies.approve'],
      ['get_reply', { reply_id: reply.id }, 'leads.read'],
      ['send_reply', { reply_id: reply.id, body: 'Tuesday works.' }, 'replies.send'],
      ['approve_reply', { reply_id: reply.id, approver: 'Maria' }, 'replies.approve'],
      ['reject_reply', { reply_id: reply.id, approver: 'Maria', reason: 'tone' }, 'replies.approve'],
      ['skip_reply', { reply_id: reply.id, reason: 'phone' }, 'replies.send'],
      ['get_weekly_reports', {}, 'reports.read'],
    ];
    for (const [name, args, scope] of calls) {
      const r = await tool(a, name, args);
      expect(r.isError, name).toBe(true);
      expect(r.text, name).toMatch(new RegExp(`^insufficient_scope: this key lacks the ${scope.replace('.', '\\.')} scope\\n`));
      expect(r.json, name).toEqual({ error: { code: 'insufficient_scope', message: `this key lacks the ${scope} scope` } });
    }
    expect(await outbox(a.t)).toEqual([]);
    expect(await trail(a.t, reply.id)).toEqual([]);
    const [row] = (await a.t.call('GET', `/v1/replies?status=unanswered`)).json.replies;
    expect(row).toMatchObject({ id: reply.id, status: 'unanswered' });
  });

  it('one opt-in lists only the tools it opens: leads.read alone lists get_reply', async () => {
    const a = await agency({ scopes: ['leads.read'] });
    const names = (await a.mcp.listTools()).tools.map((x) => x.name).filter((n) => REPLY_TOOLS.includes(n));
    expect(names).toEqual(['get_reply']);
  });
});

describe('get_reply', () => {
  it('answers as GET /v1/replies/{id} does; another organization\'s reply is not_found on both faces', async () => {
    const a = await agency();
    const { reply } = await a.t.reply({ from_email: 'una@prospect.com', from_name: 'Una', body: 'Tell me more about pricing.' });
    const rest = await a.t.call('GET', `/v1/replies/${reply.id}`, { key: a.key });
    expect(rest.status).toBe(200);
    expect(rest.json).toMatchObject({ reply: { id: reply.id, from_email: 'una@prospect.com', body: 'Tell me more about pricing.' }, thread_length: 1 });
    expect((await tool(a, 'get_reply', { reply_id: reply.id })).json).toEqual(rest.json);

    const other = await newTenant(env);
    const theirs = (await other.reply()).reply;
    const restOther = await a.t.call('GET', `/v1/replies/${theirs.id}`, { key: a.key });
    expect(restOther.status).toBe(404);
    const toolOther = await tool(a, 'get_reply', { reply_id: theirs.id });
    expect(toolOther.isError).toBe(true);
    expect(toolOther.json).toEqual(restOther.json);
    expect(toolOther.text).toMatch(/^not_found: /);

    const bad = await tool(a, 'get_reply', { reply_id: '42' });
    expect(bad.text).toMatch(/^validation_error: reply_id/);
  });
});

describe('list_pending_replies', () => {
  /** A queued draft and an unanswered reply for client A, a queued draft for client B. */
  async function story(a: Agency) {
    const queuer = await a.t.addKey({ name: 'desk', kind: 'agency', scopes: ['replies.send'], autonomy_level: 0 });
    const queuedA = (await a.t.reply({ received_at: '2026-11-01T09:00:00Z' })).reply;
    const unansweredA = (await a.t.reply({ received_at: '2026-11-02T09:00:00Z' })).reply;
    const clientB = await a.t.addClient('Client B');
    const campaignB = await a.t.addCampaign(clientB.id, 'Campaign B');
    const queuedB = (await a.t.reply({ campaign_id: campaignB.id, received_at: '2026-11-03T09:00:00Z' })).reply;
    for (const r of [queuedA, queuedB]) expect((await a.t.call('POST', `/v1/replies/${r.id}/send`, { key: queuer, body: { body: `Draft for ${r.id}` } })).status).toBe(202);
    return { queuedA, unansweredA, queuedB, clientB };
  }

  it('the review queue by default, as GET /v1/replies?status=in_review; client_id narrows it; unanswered as ?status=unanswered', async () => {
    const a = await agency();
    const s = await story(a);
    const cases: Array<[Record<string, unknown>, string, string[]]> = [
      [{}, 'status=in_review', [s.queuedA.id, s.queuedB.id]],
      [{ client_id: s.clientB.id }, `status=in_review&client_id=${s.clientB.id}`, [s.queuedB.id]],
      [{ status: 'unanswered' }, 'status=unanswered', [s.unansweredA.id]],
      [{ status: 'unanswered', client_id: s.clientB.id }, `status=unanswered&client_id=${s.clientB.id}`, []],
      [{ limit: 1, offset: 1 }, 'status=in_review&limit=1&offset=1', [s.queuedB.id]],
    ];
    for (const [args, query, expected] of cases) {
      const rest = await a.t.call('GET', `/v1/replies?${query}`, { key: a.key });
      expect(rest.status, query).toBe(200);
      expect(rest.json.replies.map((x: any) => x.reply_id ?? x.id), query).toEqual(expected);
      const r = await tool(a, 'list_pending_replies', args);
      expect(r.isError, query).toBe(false);
      expect(r.json, query).toEqual(rest.json);
    }
    const queue = (await tool(a, 'list_pending_replies', {})).json;
    expect(queue).toMatchObject({ count: 2, total_count: 2, has_more: false });
    expect(queue.replies[0]).toMatchObject({ reply_id: s.queuedA.id, body: `Draft for ${s.queuedA.id}`, queued_by: 'desk', reply: { id: s.queuedA.id } });
  });

  it('status unanswered needs leads.read as well, refused as REST refuses it; another organization\'s client is not_found', async () => {
    const a = await agency({ scopes: ['replies.approve'] });
    await story(a);
    const rest = await a.t.call('GET', '/v1/replies?status=unanswered', { key: a.key });
    expect(rest.status).toBe(403);
    const r = await tool(a, 'list_pending_replies', { status: 'unanswered' });
    expect(r.isError).toBe(true);
    expect(r.json).toEqual(rest.json);
    expect(r.json.error.message).toBe('this key lacks the leads.read scope');

    const other = await newTenant(env);
    const restOther = await a.t.call('GET', `/v1/replies?status=in_review&client_id=${other.client.id}`, { key: a.key });
    expect(restOther.status).toBe(404);
    const toolOther = await tool(a, 'list_pending_replies', { client_id: other.client.id });
    expect(toolOther.json).toEqual(restOther.json);
    expect(toolOther.json.error.code).toBe('not_found');

    for (const [args, field] of [[{ status: 'sent' }, 'status'], [{ limit: 0 }, 'limit'], [{ client_id: 'x' }, 'client_id'], [{ campaign_id: a.t.campaign.id }, 'arguments: unknown field\\(s\\) campaign_id']] as const) {
      expect((await tool(a, 'list_pending_replies', args)).text, field).toMatch(new RegExp(`^validation_error: ${field}`));
    }
  });
});

describe('GET /v1/replies?client_id= (the core route)', () => {
  it('filters the reply list and the review queue by client; another organization\'s client is 404; a locked key may name only its own', async () => {
    const t = await newTenant(env);
    const a1 = (await t.reply()).reply;
    const clientB = await t.addClient('Client B');
    const campaignB = await t.addCampaign(clientB.id, 'Campaign B');
    const b1 = (await t.reply({ campaign_id: campaignB.id })).reply;
    const b2 = (await t.reply({ campaign_id: campaignB.id })).reply;
    expect((await t.call('POST', `/v1/replies/${b2.id}/send`, { body: { body: 'draft' } })).status).toBe(202);
    const ids = (r: { json: any }) => r.json.replies.map((x: any) => x.reply_id ?? x.id).sort();

    expect(ids(await t.call('GET', `/v1/replies?client_id=${t.client.id}`))).toEqual([a1.id]);
    const listB = await t.call('GET', `/v1/replies?client_id=${clientB.id}`);
    expect(listB.json).toMatchObject({ total_count: 2 });
    expect(ids(listB)).toEqual([b1.id, b2.id].sort());
    expect(ids(await t.call('GET', `/v1/replies?client_id=${clientB.id}&status=unanswered`))).toEqual([b1.id]);
    expect(ids(await t.call('GET', `/v1/replies?status=queued&client_id=${clientB.id}`))).toEqual([b2.id]);
    expect((await t.call('GET', `/v1/replies?status=queued&client_id=${t.client.id}`)).json).toMatchObject({ replies: [], total_count: 0 });

    const other = await newTenant(env);
    for (const q of [`client_id=${other.client.id}`, `status=queued&client_id=${other.client.id}`]) {
      const r = await t.call('GET', `/v1/replies?${q}`);
      expect([r.status, r.json.error.code], q).toEqual([404, 'not_found']);
    }
    const lockedB = await t.addKey({ client_id: clientB.id, scopes: ['leads.read', 'replies.approve'] });
    expect(ids(await t.call('GET', `/v1/replies?client_id=${clientB.id}`, { key: lockedB }))).toEqual([b1.id, b2.id].sort());
    for (const q of [`client_id=${t.client.id}`, `status=queued&client_id=${t.client.id}`]) {
      const r = await t.call('GET', `/v1/replies?${q}`, { key: lockedB });
      expect([r.status, r.json.error.code], q).toEqual([404, 'not_found']);
    }
    const bad = await t.call('GET', '/v1/replies?client_id=42');
    expect([bad.status, bad.json.error.message]).toEqual([400, expect.stringMatching(/^client_id/)]);
  });
});

describe('send_reply: the governed send', () => {
  it('autonomy level 0: queued for review (the 202 shape), nothing sent; Decision Trail and audit log name the key', async () => {
    const a = await agency({ autonomy_level: 0 });
    const viaTool = (await a.t.reply()).reply;
    const viaRest = (await a.t.reply()).reply;
    const r = await tool(a, 'send_reply', { reply_id: viaTool.id, body: 'Happy to talk Tuesday.' });
    expect(r.json).toEqual({ status: 'queued_for_review', reply_id: viaTool.id, reason: 'no_active_autonomy_grant', suggestion_id: expect.stringMatching(/^sug_/), replaced: false });
    const rest = await a.t.call('POST', `/v1/replies/${viaRest.id}/send`, { key: a.key, body: { body: 'Happy to talk Tuesday.' } });
    expect(rest.status).toBe(202);
    expect(normal(r.json)).toEqual(normal(rest.json));
    expect(await outbox(a.t)).toEqual([]);
    const [queued] = await trail(a.t, viaTool.id);
    expect(queued).toMatchObject({ action: 'reply.queued', actor: 'assistant', detail: { autonomy_level: 0, key_name: 'assistant', suggestion_id: r.json.suggestion_id } });
    expect(await replyAudit(a.t.org.id)).toEqual([
      { actor: 'mcp:assistant', action: 'reply.queued', target: `reply:${viaTool.id}`, detail: { autonomy_level: 0, reason: 'no_active_autonomy_grant', suggestion_id: r.json.suggestion_id } },
      { actor: 'key:assistant', action: 'reply.queued', target: `reply:${viaRest.id}`, detail: { autonomy_level: 0, reason: 'no_active_autonomy_grant', suggestion_id: rest.json.suggestion_id } },
    ]);
    // A second send replaces the draft on both faces alike.
    const again = await tool(a, 'send_reply', { reply_id: viaTool.id, body: 'Tuesday 10:00?' });
    expect(again.json).toMatchObject({ status: 'queued_for_review', suggestion_id: r.json.suggestion_id, replaced: true });
  });

  it('autonomy level 2: sent (an outbox row), the Decision Trail with the key; a repeat is already_sent on both faces and sends nothing', async () => {
    const a = await agency({ autonomy_level: 2 });
    const viaTool = (await a.t.reply({ from_email: 'dana@prospect.io' })).reply;
    const viaRest = (await a.t.reply({ from_email: 'eli@prospect.io' })).reply;
    const r = await tool(a, 'send_reply', { reply_id: viaTool.id, body: 'Great, I booked Tuesday 10:00.' });
    expect(r.json).toEqual({ status: 'sent', reply_id: viaTool.id, sent: true, to_email: 'dana@prospect.io', learned: false, sent_at: expect.any(String) });
    const rest = await a.t.call('POST', `/v1/replies/${viaRest.id}/send`, { key: a.key, body: { body: 'Great, I booked Tuesday 10:00.' } });
    expect(rest.status).toBe(200);
    expect(normal(r.json)).toEqual(normal(rest.json));
    const sent = await outbox(a.t);
    expect(sent.map((m) => [m.reply_id, m.to_email, m.body]).sort()).toEqual(
      [
        [viaTool.id, 'dana@prospect.io', 'Great, I booked Tuesday 10:00.'],
        [viaRest.id, 'eli@prospect.io', 'Great, I booked Tuesday 10:00.'],
      ].sort(),
    );
    expect(await trail(a.t, viaTool.id)).toEqual([
      expect.objectContaining({ action: 'reply.sent', actor: 'assistant', detail: expect.objectContaining({ autonomy_level: 2, key_name: 'assistant', provider: 'outbox' }) }),
    ]);
    expect((await replyAudit(a.t.org.id)).map((x) => [x.actor, x.action, x.target])).toEqual([
      ['mcp:assistant', 'reply.sent', `reply:${viaTool.id}`],
      ['key:assistant', 'reply.sent', `reply:${viaRest.id}`],
    ]);

    const repeatTool = await tool(a, 'send_reply', { reply_id: viaTool.id, body: 'Great, I booked Tuesday 10:00.' });
    const repeatRest = await a.t.call('POST', `/v1/replies/${viaTool.id}/send`, { key: a.key, body: { body: 'Great, I booked Tuesday 10:00.' } });
    expect(repeatRest.status).toBe(409);
    expect(repeatTool.isError).toBe(true);
    expect(repeatTool.json).toEqual(repeatRest.json);
    expect(repeatTool.json.error.code).toBe('already_sent');
    expect(await outbox(a.t)).toHaveLength(2);
    expect(await replyAudit(a.t.org.id)).toHaveLength(2);
  });

  it('the send limits apply to the tool as to REST: a lead just contacted is lead_recently_contacted', async () => {
    const a = await agency({ autonomy_level: 2 });
    const first = (await a.t.reply({ from_email: 'kim@prospect.io' })).reply;
    const second = (await a.t.reply({ from_email: 'kim@prospect.io' })).reply;
    expect((await tool(a, 'send_reply', { reply_id: first.id, body: 'first' })).json.status).toBe('sent');
    const r = await tool(a, 'send_reply', { reply_id: second.id, body: 'second' });
    expect(r.isError).toBe(true);
    const rest = await a.t.call('POST', `/v1/replies/${second.id}/send`, { key: a.key, body: { body: 'second' } });
    // The same refusal; its message counts down the cooldown's seconds, which may tick between the two calls.
    const sameRefusal = { error: { code: 'lead_recently_contacted', message: expect.stringMatching(/^this lead was contacted within the last 15 minutes; the next contact is possible in \d+ s$/) } };
    expect(r.json).toEqual(sameRefusal);
    expect([rest.status, rest.json]).toEqual([429, sameRefusal]);
    expect((await outbox(a.t)).map((m) => m.body)).toEqual(['first']);
  });

  it('names the argument: missing or blank body, an unknown argument', async () => {
    const a = await agency();
    const { reply } = await a.t.reply();
    for (const [args, field] of [
      [{ reply_id: reply.id }, 'body'],
      [{ reply_id: reply.id, body: '   ' }, 'body'],
      [{ reply_id: reply.id, body: 'x', cc: 'boss@agency.com' }, 'arguments'],
    ] as const) {
      const r = await tool(a, 'send_reply', args);
      expect(r.text, JSON.stringify(args)).toMatch(new RegExp(`^validation_error: ${field}`));
    }
    expect(await trail(a.t, reply.id)).toEqual([]);
  });
});

describe('approve_reply, reject_reply, skip_reply', () => {
  /** Two replies with a draft queued by a level-0 key, one for each face. */
  async function twoQueued(a: Agency) {
    const desk = await a.t.addKey({ name: 'desk', kind: 'agency', scopes: ['replies.send'], autonomy_level: 0 });
    const out = [];
    for (const email of ['lee@prospect.io', 'max@prospect.io']) {
      const { reply } = await a.t.reply({ from_email: email });
      expect((await a.t.call('POST', `/v1/replies/${reply.id}/send`, { key: desk, body: { body: `Draft for ${email}` } })).status).toBe(202);
      out.push(reply);
    }
    return out;
  }

  it('approve: the draft is sent with the approver recorded, the same answer on both faces', async () => {
    const a = await agency({ autonomy_level: 0 });
    const [viaTool, viaRest] = await twoQueued(a);
    const r = await tool(a, 'approve_reply', { reply_id: viaTool.id, approver: 'Maria' });
    expect(r.json).toEqual({ status: 'sent', reply_id: viaTool.id, sent: true, to_email: 'lee@prospect.io', learned: false, sent_at: expect.any(String), suggestion_id: expect.stringMatching(/^sug_/), approver: 'Maria' });
    const rest = await a.t.call('POST', `/v1/replies/${viaRest.id}/approve`, { key: a.key, body: { approver: 'Maria' } });
    expect(rest.status).toBe(200);
    expect(normal(r.json)).toEqual(normal(rest.json));
    expect((await outbox(a.t)).map((m) => m.body).sort()).toEqual(['Draft for lee@prospect.io', 'Draft for max@prospect.io']);
    expect((await trail(a.t, viaTool.id)).find((d) => d.action === 'reply.approved')).toMatchObject({ actor: 'Maria', detail: { approver: 'Maria', key_name: 'assistant', via: 'approve' } });
    // The drafts were queued through REST by the agency key "desk": key:desk.
    expect((await replyAudit(a.t.org.id)).map((x) => [x.actor, x.action, x.target])).toEqual([
      ['key:desk', 'reply.queued', `reply:${viaTool.id}`],
      ['key:desk', 'reply.queued', `reply:${viaRest.id}`],
      ['mcp:assistant', 'reply.approved', `reply:${viaTool.id}`],
      ['key:assistant', 'reply.approved', `reply:${viaRest.id}`],
    ]);
    const again = await tool(a, 'approve_reply', { reply_id: viaTool.id, approver: 'Maria' });
    const againRest = await a.t.call('POST', `/v1/replies/${viaTool.id}/approve`, { key: a.key, body: { approver: 'Maria' } });
    expect(again.json).toEqual(againRest.json);
    expect(again.json.error.code).toBe('already_sent');
    expect(await outbox(a.t)).toHaveLength(2);
  });

  it('reject: the draft is removed and nothing is sent; a repeat is no_pending_draft on both faces', async () => {
    const a = await agency();
    const [viaTool, viaRest] = await twoQueued(a);
    const r = await tool(a, 'reject_reply', { reply_id: viaTool.id, approver: 'Maria', reason: 'too pushy' });
    expect(r.json).toEqual({ status: 'rejected', reply_id: viaTool.id, suggestion_id: expect.stringMatching(/^sug_/), approver: 'Maria', reason: 'too pushy' });
    const rest = await a.t.call('POST', `/v1/replies/${viaRest.id}/reject`, { key: a.key, body: { approver: 'Maria', reason: 'too pushy' } });
    expect(rest.status).toBe(200);
    expect(normal(r.json)).toEqual(normal(rest.json));
    expect(await outbox(a.t)).toEqual([]);
    expect((await tool(a, 'list_pending_replies', {})).json.replies).toEqual([]);
    expect((await trail(a.t, viaTool.id)).at(-1)).toMatchObject({ action: 'reply.rejected', actor: 'Maria', detail: { reason: 'too pushy', key_name: 'assistant' } });
    const again = await tool(a, 'reject_reply', { reply_id: viaTool.id, approver: 'Maria', reason: 'again' });
    const againRest = await a.t.call('POST', `/v1/replies/${viaTool.id}/reject`, { key: a.key, body: { approver: 'Maria', reason: 'again' } });
    expect(againRest.status).toBe(409);
    expect(again.json).toEqual(againRest.json);
    expect(again.json.error.code).toBe('no_pending_draft');
  });

  it('skip: the decision is recorded with the reason, nothing sent; a repeat is already_skipped on both faces', async () => {
    const a = await agency();
    const viaTool = (await a.t.reply()).reply;
    const viaRest = (await a.t.reply()).reply;
    const r = await tool(a, 'skip_reply', { reply_id: viaTool.id, reason: 'answered by phone' });
    expect(r.json).toEqual({ status: 'skipped', reply_id: viaTool.id, reason: 'answered by phone' });
    const rest = await a.t.call('POST', `/v1/replies/${viaRest.id}/skip`, { key: a.key, body: { reason: 'answered by phone' } });
    expect(rest.status).toBe(200);
    expect(normal(r.json)).toEqual(normal(rest.json));
    expect(await trail(a.t, viaTool.id)).toEqual([expect.objectContaining({ action: 'reply.skipped', actor: 'assistant', detail: expect.objectContaining({ reason: 'answered by phone', key_name: 'assistant' }) })]);
    expect(await replyAudit(a.t.org.id)).toEqual([
      { actor: 'mcp:assistant', action: 'reply.skipped', target: `reply:${viaTool.id}`, detail: { reason: 'answered by phone' } },
      { actor: 'key:assistant', action: 'reply.skipped', target: `reply:${viaRest.id}`, detail: { reason: 'answered by phone' } },
    ]);
    const again = await tool(a, 'skip_reply', { reply_id: viaTool.id, reason: 'again' });
    const againRest = await a.t.call('POST', `/v1/replies/${viaTool.id}/skip`, { key: a.key, body: { reason: 'again' } });
    expect(againRest.status).toBe(409);
    expect(again.json).toEqual(againRest.json);
    expect(again.json.error.code).toBe('already_skipped');
    expect(await outbox(a.t)).toEqual([]);
  });
});

describe('tenant isolation', () => {
  it("another organization's reply is not_found for every reply tool, and nothing of it changes", async () => {
    const a = await agency();
    const other = await newTenant(env);
    const theirs = (await other.reply()).reply;
    const queued = (await other.reply()).reply;
    expect((await other.call('POST', `/v1/replies/${queued.id}/send`, { body: { body: 'their draft' } })).status).toBe(202);
    const calls: Array<[string, Record<string, unknown>]> = [
      ['get_reply', { reply_id: theirs.id }],
      ['send_reply', { reply_id: theirs.id, body: 'hello' }],
      ['skip_reply', { reply_id: theirs.id, reason: 'not mine' }],
      ['approve_reply', { reply_id: queued.id, approver: 'Mallory' }],
      ['reject_reply', { reply_id: queued.id, approver: 'Mallory', reason: 'not mine' }],
    ];
    for (const [name, args] of calls) {
      const r = await tool(a, name, args);
      expect(r.isError, name).toBe(true);
      expect(r.json, name).toEqual({ error: { code: 'not_found', message: 'reply not found' } });
    }
    const mine = await other.call('GET', '/v1/replies');
    expect(mine.json.replies.map((x: any) => [x.id, x.status]).sort()).toEqual(
      [
        [theirs.id, 'unanswered'],
        [queued.id, 'queued'],
      ].sort(),
    );
    expect(await outbox(other)).toEqual([]);
    expect((await tool(a, 'list_pending_replies', {})).json).toMatchObject({ replies: [], total_count: 0 });
  });
});

describe('get_weekly_reports', () => {
  it('lists as GET /v1/reports and reads one as GET /v1/reports/{id} (report_id); another organization\'s report is not_found', async () => {
    const a = await agency();
    const db = env.services.db;
    const friday = await generateReport({ db, orgId: a.t.org.id, clientId: null, briefType: 'friday', now: env.clock.now() });
    const monday = await generateReport({ db, orgId: a.t.org.id, clientId: a.t.client.id, briefType: 'monday', now: env.clock.now() });
    for (const [args, query] of [
      [{}, ''],
      [{ type: 'monday' }, '?type=monday'],
      [{ limit: 1, offset: 1 }, '?limit=1&offset=1'],
    ] as const) {
      const rest = await a.t.call('GET', `/v1/reports${query}`, { key: a.key });
      expect(rest.status, query).toBe(200);
      const r = await tool(a, 'get_weekly_reports', args);
      expect(r.json, query).toEqual(rest.json);
    }
    expect((await tool(a, 'get_weekly_reports', {})).json).toMatchObject({ total_count: 2, limit: 20, offset: 0 });
    expect((await tool(a, 'get_weekly_reports', { type: 'monday' })).json.reports.map((x: any) => x.id)).toEqual([monday.id]);

    const one = await a.t.call('GET', `/v1/reports/${friday.id}`, { key: a.key });
    expect(one.json.report).toMatchObject({ id: friday.id, brief_type: 'friday' });
    expect((await tool(a, 'get_weekly_reports', { report_id: friday.id })).json).toEqual(one.json);

    const other = await newTenant(env);
    const theirs = await generateReport({ db, orgId: other.org.id, clientId: null, briefType: 'friday', now: env.clock.now() });
    const restOther = await a.t.call('GET', `/v1/reports/${theirs.id}`, { key: a.key });
    expect(restOther.status).toBe(404);
    expect((await tool(a, 'get_weekly_reports', { report_id: theirs.id })).json).toEqual(restOther.json);
    expect((await tool(a, 'get_weekly_reports', { report_id: friday.id, type: 'friday' })).text).toMatch(/^validation_error: type/);
    expect((await tool(a, 'get_weekly_reports', { limit: 51 })).text).toMatch(/^validation_error: limit/);
  });
});
