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

  it('from a new client to a simulated reply answered under governance', { timeout: 120_000 }, async () => {
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
    expect(ranRun.run.written).toBeGreaterThan(40);
    const profiled = await db.select().from(poolLeads).where(eq(poolLeads.clientId, clientId));
    expect(profiled.filter((l) => l.custom.industry != null).length).toBeGreaterThan(40);

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

    // STUDIO ENGINE (filled in as the engine lands): sequence, batch, writing, review, approval, campaign, push.
    void replies;
    void outboxMessages;
    void simSequencerSends;
    void studioCampaignLeads;
    void advanceDays;
  });
});
