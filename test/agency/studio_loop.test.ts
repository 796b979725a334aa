// Issue 18's proof: the whole agency loop through the tool server only, with the official SDK client, on simulated
// time (both tiers; the integration tier on a database of its own, because advancing the clock runs every due job
// and tick it finds). What a person does in the app stays on the admin API: the organization, the assistant's key,
// the bridge hook, opening the push gate, and moving the simulated clock. Everything else is a tool call:
// a client, leads imported through the bridge, emails found, a recipe enriching them, domains and mailboxes set up by
// an approved plan and warmed, a batch allocated, written, reviewed and approved, the push on its day, simulated
// replies in the core queue, and one answered through send_reply under governance.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../functions/jobs/handlers';
import { createNodeServices, type NodeServices } from '../../lib/runtime/node';
import { createNodeApp } from '../../scripts/node_server';
import { outboxMessages, poolLeads, replies, simOrders, simSequencerSends, studioCampaignLeads } from '../../schema';
import { addHook, bridgePost, personRow } from '../bridge/helpers';
import { ADMIN_TOKEN, startTestEnv, type TestEnv } from '../helpers/harness';
import { mcpClient, toolCaller } from '../helpers/mcp';
import { newTenant, randomIp, request } from '../helpers/tenant';
import { freshStem } from './domains_helpers';

let wall: TestEnv;
let sim: TestEnv;
let services: NodeServices;

beforeAll(async () => {
  wall = await startTestEnv({ CLOCK: 'sim' }, { ownDatabase: true });
  services = await createNodeServices(wall.config, { database: wall.services.database });
  sim = { ...wall, services, app: createNodeApp(services) };
}, 120_000);
afterAll(() => wall.close());

const ip = randomIp();
const DAY = 86_400;
const admin = (method: string, path: string, body?: unknown) => request(sim, method, path, { key: null, body, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, ip });

async function advanceDays(days: number) {
  const r = await admin('POST', '/admin/v1/sim/clock', { advance_seconds: days * DAY });
  expect(r.status, r.text).toBe(200);
}

type Tool = ReturnType<typeof toolCaller>;

/** A tool call that must succeed; its JSON. */
function ok(tool: Tool) {
  return async (name: string, args: Record<string, unknown> = {}) => {
    const r = await tool(name, args);
    expect(r.isError, `${name}: ${r.text}`).toBe(false);
    return r.json;
  };
}

/** A two-step tool: the preview (must carry a token), then the confirm with it; the confirmed result. */
function twoStep(tool: Tool) {
  const call = ok(tool);
  return async (name: string, args: Record<string, unknown>) => {
    const preview = await call(name, args);
    expect(preview.confirm_token, `${name} preview: ${JSON.stringify(preview)}`).toEqual(expect.any(String));
    return call(name, { ...args, confirm_token: preview.confirm_token });
  };
}

describe('the whole agency loop through MCP on simulated time', () => {
  let mcp: Client;
  afterAll(() => mcp?.close());

  it('from a new client to a simulated reply answered under governance', { timeout: 240_000 }, async () => {
    const t = await newTenant(sim, { features: { agency_tools: true, studio: true } });
    const key = await t.addKey({ name: 'assistant', kind: 'agency', scopes: ['agency.plans.approve', 'replies.send', 'replies.approve', 'leads.read'] });
    mcp = await mcpClient(sim, key, { ip });
    const tool = toolCaller(mcp);
    const call = ok(tool);
    const confirm = twoStep(tool);
    const db = services.db;

    // A client of its own, created by the assistant.
    const { client } = await call('create_client', { name: 'Loop Client' });
    const clientId = client.id as string;

    // Leads through the bridge (the table tool's side): 40 with a work email, 6 with a person and a company only.
    const hook = await addHook(t, clientId, 'Clay');
    const withEmail = Array.from({ length: 40 }, () => personRow());
    const withoutEmail = Array.from({ length: 6 }, (_, i) => {
      const row = personRow({ first_name: `Nora${i}`, last_name: 'Stein' });
      const domain = row.email.split('@')[1];
      return { first_name: row.first_name, last_name: row.last_name, company: row.company, website: `https://${domain}`, title: 'VP Sales' };
    });
    const inbound = await bridgePost(sim, hook, { rows: [...withEmail, ...withoutEmail] });
    expect(inbound.status, inbound.text).toBeLessThan(300);
    const imports = await call('list_imports', { client_id: clientId });
    expect(imports.imports[0]).toMatchObject({ added: 40, waiting_for_email: 6 });

    // Emails found for the six by the waterfall (one round; the token is reused per round).
    const estimate = await call('estimate_find_emails', { client_id: clientId });
    expect(estimate.estimate).toMatchObject({ leads: 6, eligible: 6 });
    const found = await confirm('run_find_emails', { client_id: clientId });
    expect(found.run).toMatchObject({ status: 'done', processed: 6 });
    expect(found.run.found).toBeGreaterThan(0);
    const waiting = await db.select().from(poolLeads).where(and(eq(poolLeads.clientId, clientId), eq(poolLeads.status, 'waiting_for_email')));
    expect(waiting).toHaveLength(6 - found.run.found);

    // A recipe enriches them: created from a starter, dry-run on 10 leads, made live by an approved plan step, run.
    const { recipe } = await confirm('create_recipe', { client_id: clientId, name: 'Profile', template_id: 'starter:company_profile' });
    await confirm('preview_recipe', { client_id: clientId, recipe_id: recipe.id, version: 'draft' });
    const golive = await call('propose_action', { client_id: clientId, kind: 'recipe_go_live', params: { recipe_id: recipe.id } });
    await confirm('approve_plan', { plan_id: golive.plan.id });
    await advanceDays(1);
    const run = await confirm('run_formula', { client_id: clientId, recipe_id: recipe.id });
    await advanceDays(1);
    const ranRun = await call('get_run', { client_id: clientId, run_id: run.run.id });
    expect(ranRun.run).toMatchObject({ status: 'done', total: 46, processed: 46 });
    const profiled = await db.select().from(poolLeads).where(eq(poolLeads.clientId, clientId));
    const cells = profiled.reduce((n, l) => n + ['industry', 'company_size', 'timezone'].filter((k) => l.custom[k] != null).length, 0);
    expect(cells).toBe(ranRun.run.written);
    expect(cells).toBeGreaterThan(46);

    // Sending infrastructure through an approved plan: the rule, a workspace, two domains, mailboxes; 14 days' warm-up.
    const stem = freshStem();
    await confirm('set_domain_rule', { client_id: clientId, stems: [stem], mailboxes_per_domain: 3, daily_cap: 40, redirect_to: 'https://loop.example/' });
    const ws = await call('list_domain_workspaces', { client_id: clientId });
    await call('set_domain_workspace', { client_id: clientId, workspace_id: ws.workspaces[0].id });
    const options = await call('domain_options', { client_id: clientId, stems: [stem], limit: 2 });
    const chosen = await confirm('choose_domains', { client_id: clientId, domains: options.options.slice(0, 2).map((o: { domain: string }) => o.domain) });
    await confirm('approve_plan', { plan_id: chosen.plan.id });
    await advanceDays(3);
    expect(await db.select().from(simOrders).where(eq(simOrders.orgId, t.org.id))).toHaveLength(2);
    const life = await call('get_mailbox_lifecycle', { client_id: clientId });
    expect(life.counts.warming).toBe(6);
    await advanceDays(14);
    expect((await call('get_mailbox_lifecycle', { client_id: clientId })).counts).toMatchObject({ warming: 0, reserve: 6 });

    // The sequence, then a batch of every lead with an email, written (1 credit each), reviewed and approved.
    await call('update_sequence', {
      client_id: clientId,
      steps: [
        { subject: 'Quick question, {{first_name}}', body: 'Hi {{first_name}},\n\nWe help teams like {{company}} book more meetings.\n\nWorth a short call next week?', delay_days: 0 },
        { subject: null, body: 'Hi {{first_name}}, following up on my note about {{company}}. Open to a short call?', delay_days: 3, condition: 'no_reply' },
      ],
    });
    const allocated = await confirm('allocate_batch', { client_id: clientId, size: 100 });
    const leadCount = allocated.batch.leads as number;
    expect(leadCount).toBe(40 + found.run.found);
    const credits0 = (await call('get_account')).credits.balance as number;
    const written = await confirm('start_writing', { client_id: clientId });
    expect(written.batch.status).toBe('written');
    expect((await call('get_account')).credits.balance).toBe(credits0 - leadCount);
    const review = await call('review_batch', { client_id: clientId, limit: 200 });
    expect(review.leads).toHaveLength(leadCount);
    const first = await call('review_lead', { client_id: clientId, lead_id: review.leads[0].lead_id });
    expect(first.review.missing).toEqual([]);
    for (const mail of first.review.mails) for (const sentence of mail.sentences) expect(sentence.source, sentence.text).not.toBeNull();
    // The reviewer reads two leads, approves one, edits the other's first mail; the batch approval takes the rest.
    await confirm('review_approve', { client_id: clientId, lead_id: review.leads[0].lead_id });
    const second = await call('review_lead', { client_id: clientId, lead_id: review.leads[1].lead_id });
    const mail1 = second.review.mails[0];
    await confirm('review_edit_mail', { client_id: clientId, lead_id: review.leads[1].lead_id, step: mail1.step, subject: mail1.subject, body: `${mail1.body}\n\nP.S. Happy to send a two-minute video instead.` });
    const approved = await confirm('approve_batch', { client_id: clientId });
    expect(approved.batch).toMatchObject({ status: 'approved', review: { approved: leadCount, pending: 0, rejected: 0 } });
    expect(await db.select().from(studioCampaignLeads).where(eq(studioCampaignLeads.orgId, t.org.id))).toHaveLength(0);

    // The campaign: its push step, the warmed mailboxes attached to it, the plan approved. The gate is closed: no push.
    const started = await call('start_campaign', { client_id: clientId, name: 'Loop wave 1' });
    const mailboxIds = (await call('get_mailbox_lifecycle', { client_id: clientId })).mailboxes.map((m: { id: string }) => m.id);
    await call('attach_mailboxes', { client_id: clientId, mailbox_ids: mailboxIds, campaign_ids: [started.studio_campaign.campaign_id] });
    await confirm('approve_plan', { plan_id: started.plan.id });
    await advanceDays(1);
    expect(await db.select().from(studioCampaignLeads).where(eq(studioCampaignLeads.orgId, t.org.id))).toHaveLength(0);
    expect((await call('campaign_results', { client_id: clientId, campaign_id: started.studio_campaign.id })).campaign.status).toBe('waiting_gate');

    // A person opens the push gate in the app; the step pushes every lead once, and the simulated sequencer sends.
    expect((await admin('PATCH', `/admin/v1/orgs/${t.org.id}`, { push_gate_open: true })).status).toBe(200);
    await advanceDays(1);
    const pushed = await db.select().from(studioCampaignLeads).where(eq(studioCampaignLeads.orgId, t.org.id));
    expect(pushed.filter((l) => l.outcome === 'pushed')).toHaveLength(leadCount);
    expect(new Set(pushed.map((l) => l.poolLeadId)).size).toBe(pushed.length);

    // Days of sending until a simulated reply has entered the core queue. The outcomes are hashes of this run's random
    // campaign reference and addresses, so a run may see no reply in 10 days (once in CI): bounded at 25.
    let unanswered: any[] = [];
    for (let day = 0; day < 25 && unanswered.length === 0; day++) {
      await advanceDays(1);
      unanswered = (await call('list_pending_replies', { status: 'unanswered', client_id: clientId })).replies;
    }
    expect(unanswered.length, 'a simulated reply reached the core queue').toBeGreaterThan(0);
    const sends = await db.select().from(simSequencerSends).where(eq(simSequencerSends.orgId, t.org.id));
    expect(sends.filter((x) => x.outcome === 'replied').length).toBeGreaterThanOrEqual(unanswered.length);
    const results = await call('campaign_results', { client_id: clientId, campaign_id: started.studio_campaign.id });
    expect(results.campaign).toMatchObject({ status: 'pushed', pushed: leadCount });
    expect(results.campaign.replied).toBeGreaterThan(0);

    // The assistant answers one under governance: its key has no autonomy grant, so the send waits for a person's
    // approval, which sends it once through the outbox.
    const replyId = unanswered[0].id as string;
    const detail = await call('get_reply', { reply_id: replyId });
    expect(detail.reply.id).toBe(replyId);
    const sent = await call('send_reply', { reply_id: replyId, body: 'Thanks for the reply! Would Tuesday at 10:00 work for a short call?' });
    expect(sent.status).toBe('queued_for_review');
    await call('approve_reply', { reply_id: replyId, approver: 'Dana (agency owner)' });
    const outbox = await db.select().from(outboxMessages).where(eq(outboxMessages.orgId, t.org.id));
    expect(outbox).toHaveLength(1);
    const [stored] = await db.select().from(replies).where(eq(replies.id, replyId));
    expect(stored.status).toBe('sent');
  });
});
