// The campaign tools (list_campaigns, link_campaign, import_campaigns) through REST and through the MCP SDK
// client: the same answers, tenant isolation, validation naming the argument, the two-step import.
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, campaigns, leads, providerCampaigns, sendingProviders } from '../../schema';
import { createCampaign } from '../../lib/orgs/admin';
import { startTestEnv, TIER, type TestEnv } from '../helpers/harness';
import { mcpClient, toolCaller } from '../helpers/mcp';
import { newTenant, randomIp, type Tenant } from '../helpers/tenant';

const TOOLS = ['list_campaigns', 'link_campaign', 'import_campaigns'];

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

/** A tenant with the agency feature, an agency key, and both faces of the API for that key. */
async function agency() {
  const t = await newTenant(env, { features: { agency_tools: true } });
  const key = await t.addKey({ name: 'assistant', kind: 'agency', scopes: [] });
  const mcp = await mcpClient(env, key, { ip: t.ip });
  // Listing first makes the SDK client check every result against the tool's published outputSchema.
  const listed = await mcp.listTools();
  expect(listed.tools.map((x) => x.name)).toEqual(expect.arrayContaining(TOOLS));
  const rest = (method: string, path: string, body?: unknown) => t.call(method, path, { key, body });
  const tool = toolCaller(mcp);
  return { t, key, mcp, rest, tool };
}

async function addProviderCampaign(t: Tenant, providerCampaignId: string, o: { name?: string; status?: 'active' | 'paused' | 'completed'; importedCampaignId?: string } = {}) {
  const [row] = await env.services.db
    .insert(providerCampaigns)
    .values({ orgId: t.org.id, providerCampaignId, name: o.name ?? `Tool campaign ${providerCampaignId}`, status: o.status ?? 'active', importedCampaignId: o.importedCampaignId ?? null })
    .returning();
  return row;
}

/** The audit rows agency keys wrote (the admin's own setup rows are not what these tests are about). */
const auditOf = async (t: Tenant) =>
  (await env.services.db.select().from(auditLog).where(eq(auditLog.orgId, t.org.id)).orderBy(asc(auditLog.at))).filter((e) => /^(key|mcp):/.test(e.actor));
/** Waits (no assertion on time) until this many sessions of the test database wait for a lock. */
async function waitForLockWaiters(n: number) {
  await vi.waitFor(
    async () => {
      const r = (await env.services.db.execute(sql`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`)) as unknown as {
        rows: { n: number }[];
      };
      if (Number(r.rows[0].n) < n) throw new Error(`${r.rows[0].n} of ${n} confirms wait for the lock`);
    },
    { timeout: 20_000, interval: 50 },
  );
}

const campaignsOf = (t: Tenant) => env.services.db.select().from(campaigns).where(eq(campaigns.orgId, t.org.id));
const providerRows = (t: Tenant) => env.services.db.select().from(providerCampaigns).where(eq(providerCampaigns.orgId, t.org.id)).orderBy(asc(providerCampaigns.providerCampaignId));

describe('listing', () => {
  it('lists the campaign tools under the campaigns toolset with annotations that match what they do', async () => {
    const a = await agency();
    const narrowed = await mcpClient(env, a.key, { ip: a.t.ip, path: '/mcp?toolsets=campaigns' });
    const tools = new Map((await narrowed.listTools()).tools.map((x) => [x.name, x]));
    for (const name of [...TOOLS, 'get_inbox_summary', 'get_client_performance', 'list_followups']) expect(tools.has(name), name).toBe(true);
    expect(tools.has('get_account')).toBe(false);
    expect(tools.get('list_campaigns')!.annotations).toMatchObject({ readOnlyHint: true });
    // Linking where it already is changes nothing; an import creates campaigns that a repeat does not remove.
    expect(tools.get('link_campaign')!.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true, destructiveHint: false });
    expect(tools.get('import_campaigns')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(tools.get('import_campaigns')!.inputSchema.properties).toHaveProperty('confirm_token');
    await narrowed.close();
    await a.mcp.close();
  });
});

describe('list_campaigns', () => {
  it('lists the campaigns with provider ids and the provider campaigns not imported, the same on both faces', async () => {
    const a = await agency();
    const other = await newTenant(env, { features: { agency_tools: true } });
    await addProviderCampaign(other, 'elsewhere-1');
    const tool = await createCampaign(env.services.db, a.t.org.id, { name: 'From the tool', provider: 'instantly', provider_campaign_id: 'inst-9', client_id: null }, env.clock.now());
    await addProviderCampaign(a.t, 'inst-9', { importedCampaignId: tool.id });
    await addProviderCampaign(a.t, 'inst-10', { name: 'Spring push', status: 'paused' });

    const r = await a.rest('GET', '/v1/agency/campaigns');
    expect(r.status, r.text).toBe(200);
    const byId = new Map(r.json.campaigns.map((c: any) => [c.id, c]));
    expect(byId.size).toBe(2);
    expect(byId.get(a.t.campaign.id)).toMatchObject({ name: 'Campaign A', client: { id: a.t.client.id, name: 'Client A' }, sent: 200, open_rate: 0.4, provider: null, provider_campaign_id: null });
    expect(byId.get(tool.id)).toMatchObject({ client: null, provider: 'instantly', provider_campaign_id: 'inst-9' });
    // Only this organization's, and only those not imported yet.
    expect(r.json.not_imported).toEqual([{ id: expect.any(String), provider_campaign_id: 'inst-10', name: 'Spring push', status: 'paused' }]);

    const m = await a.tool('list_campaigns');
    expect(m.isError).toBe(false);
    expect(m.json).toEqual(r.json);
    await a.mcp.close();
  });

  it('narrows to one client and to a status; another organization’s client is not_found', async () => {
    const a = await agency();
    const clientB = await a.t.addClient('Client B');
    const campaignB = await a.t.addCampaign(clientB.id, 'Campaign B');
    await a.t.addCampaign(null, 'Unlinked');
    await addProviderCampaign(a.t, 'tool-1');

    const r = await a.rest('GET', `/v1/agency/campaigns?client_id=${clientB.id}`);
    expect(r.status).toBe(200);
    expect(r.json.campaigns.map((c: any) => c.id)).toEqual([campaignB.id]);
    // Not imported campaigns belong to no client: they stay listed as candidates for that client.
    expect(r.json.not_imported.map((p: any) => p.provider_campaign_id)).toEqual(['tool-1']);
    expect((await a.tool('list_campaigns', { client_id: clientB.id })).json).toEqual(r.json);

    await env.services.db.update(campaigns).set({ status: 'paused' }).where(eq(campaigns.id, campaignB.id));
    const paused = await a.rest('GET', '/v1/agency/campaigns?status=paused');
    expect(paused.json.campaigns.map((c: any) => c.id)).toEqual([campaignB.id]);
    expect(paused.json.not_imported).toEqual([]);

    const stranger = await newTenant(env, { features: { agency_tools: true } });
    const nf = await a.rest('GET', `/v1/agency/campaigns?client_id=${stranger.client.id}`);
    expect(nf.status).toBe(404);
    expect(nf.json.error.code).toBe('not_found');
    const nfTool = await a.tool('list_campaigns', { client_id: stranger.client.id });
    expect(nfTool.isError).toBe(true);
    expect(nfTool.json).toEqual(nf.json);

    const bad = await a.rest('GET', '/v1/agency/campaigns?client_id=nope');
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/^client_id: /);
    const badStatus = await a.tool('list_campaigns', { status: 'running' });
    expect(badStatus.text).toMatch(/^validation_error: status/);
    await a.mcp.close();
  });
});

describe('link_campaign', () => {
  it('links and unlinks with an audit row in the write, stamps the leads, and repeats as a no-op', async () => {
    const a = await agency();
    const clientB = await a.t.addClient('Client B');
    const reply = await a.t.reply();
    const [before] = await env.services.db.select().from(leads).where(eq(leads.id, reply.leadId));

    const r = await a.rest('PATCH', `/v1/agency/campaigns/${a.t.campaign.id}`, { client_id: clientB.id });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ updated: true, campaign: { id: a.t.campaign.id, client: { id: clientB.id, name: 'Client B' } } });
    const [row] = await env.services.db.select().from(campaigns).where(eq(campaigns.id, a.t.campaign.id));
    expect(row.clientId).toBe(clientB.id);
    // The lead moved between client portals and CRM feeds: an incremental sync must see it change.
    const [after] = await env.services.db.select().from(leads).where(eq(leads.id, reply.leadId));
    expect(after.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());
    let audit = await auditOf(a.t);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: 'key:assistant', action: 'campaign.linked', target: `campaign:${a.t.campaign.id}`, detail: { from_client_id: a.t.client.id, to_client_id: clientB.id } });

    // The same call again, on both faces: nothing to change, nothing written, the same answer.
    const again = await a.rest('PATCH', `/v1/agency/campaigns/${a.t.campaign.id}`, { client_id: clientB.id });
    expect(again.json.updated).toBe(false);
    const againTool = await a.tool('link_campaign', { campaign_id: a.t.campaign.id, client_id: clientB.id });
    expect(againTool.json).toEqual(again.json);
    expect(await auditOf(a.t)).toHaveLength(1);

    const unlink = await a.tool('link_campaign', { campaign_id: a.t.campaign.id, client_id: null });
    expect(unlink.isError).toBe(false);
    expect(unlink.json).toMatchObject({ updated: true, campaign: { client: null } });
    audit = await auditOf(a.t);
    expect(audit.map((e) => [e.actor, e.action])).toEqual([
      ['key:assistant', 'campaign.linked'],
      ['mcp:assistant', 'campaign.unlinked'],
    ]);
    await a.mcp.close();
  });

  it("answers not_found for another organization's campaign or client and changes nothing", async () => {
    const a = await agency();
    const stranger = await newTenant(env, { features: { agency_tools: true } });

    const theirs = await a.rest('PATCH', `/v1/agency/campaigns/${stranger.campaign.id}`, { client_id: a.t.client.id });
    expect(theirs.status).toBe(404);
    expect(theirs.json.error.code).toBe('not_found');
    const theirClient = await a.rest('PATCH', `/v1/agency/campaigns/${a.t.campaign.id}`, { client_id: stranger.client.id });
    expect(theirClient.status).toBe(404);
    const theirClientTool = await a.tool('link_campaign', { campaign_id: a.t.campaign.id, client_id: stranger.client.id });
    expect(theirClientTool.isError).toBe(true);
    expect(theirClientTool.json).toEqual(theirClient.json);

    const [mine] = await env.services.db.select().from(campaigns).where(eq(campaigns.id, a.t.campaign.id));
    expect(mine.clientId).toBe(a.t.client.id);
    const [their] = await env.services.db.select().from(campaigns).where(eq(campaigns.id, stranger.campaign.id));
    expect(their.clientId).toBe(stranger.client.id);
    expect(await auditOf(a.t)).toHaveLength(0);
    await a.mcp.close();
  });

  it('names the argument that fails validation', async () => {
    const a = await agency();
    const missing = await a.rest('PATCH', `/v1/agency/campaigns/${a.t.campaign.id}`, {});
    expect(missing.status).toBe(400);
    expect(missing.json.error.message).toMatch(/^client_id: /);
    const badId = await a.tool('link_campaign', { campaign_id: 'c-1', client_id: null });
    expect(badId.text).toMatch(/^validation_error: campaign_id/);
    const extra = await a.rest('PATCH', `/v1/agency/campaigns/${a.t.campaign.id}`, { client_id: null, name: 'x' });
    expect(extra.status).toBe(400);
    expect(extra.json.error.message).toMatch(/name/);
    await a.mcp.close();
  });
});

describe('import_campaigns', () => {
  it('previews without changing anything, then imports on confirm with its audit row', async () => {
    const a = await agency();
    await addProviderCampaign(a.t, 'p-2', { name: 'Second', status: 'paused' });
    await addProviderCampaign(a.t, 'p-1', { name: 'First' });
    const args = { client_id: a.t.client.id };

    const p = await a.tool('import_campaigns', args);
    expect(p.isError, p.text).toBe(false);
    expect(p.json.confirm_token).toMatch(/^ct_/);
    expect(p.json.credits).toBe(0);
    expect(p.json.preview).toEqual({
      client: { id: a.t.client.id, name: 'Client A' },
      provider: 'generic',
      count: 2,
      campaigns: [
        { provider_campaign_id: 'p-1', name: 'First', status: 'active', existing_campaign_id: null },
        { provider_campaign_id: 'p-2', name: 'Second', status: 'paused', existing_campaign_id: null },
      ],
      already_imported: [],
      more_not_imported: 0,
    });
    const restPreview = await a.rest('POST', '/v1/agency/campaigns/import', args);
    expect(restPreview.status).toBe(200);
    expect(restPreview.json.preview).toEqual(p.json.preview);
    // Previews write nothing but their tokens.
    expect(await campaignsOf(a.t)).toHaveLength(1);
    expect((await providerRows(a.t)).every((r) => r.importedCampaignId === null)).toBe(true);
    expect(await auditOf(a.t)).toHaveLength(0);

    const c = await a.rest('POST', '/v1/agency/campaigns/import', { ...args, confirm_token: restPreview.json.confirm_token });
    expect(c.status, c.text).toBe(200);
    expect(c.json.count).toBe(2);
    expect(c.json.imported.map((x: any) => [x.name, x.status, x.provider, x.provider_campaign_id, x.client?.id])).toEqual([
      ['First', 'active', 'generic', 'p-1', a.t.client.id],
      ['Second', 'paused', 'generic', 'p-2', a.t.client.id],
    ]);
    const stored = await providerRows(a.t);
    expect(stored.map((r) => r.importedCampaignId)).toEqual(c.json.imported.map((x: any) => x.id));
    const audit = await auditOf(a.t);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: 'key:assistant', action: 'campaigns.imported', target: `client:${a.t.client.id}`, credits: 0 });
    expect(audit[0].detail).toMatchObject({ provider_campaign_ids: ['p-1', 'p-2'], campaign_ids: c.json.imported.map((x: any) => x.id) });

    // The other token was for the same state, which the import changed: it is stale, and the fresh preview is empty.
    const late = await a.tool('import_campaigns', { ...args, confirm_token: p.json.confirm_token });
    expect(late.isError).toBe(true);
    expect(late.json.error.code).toBe('preview_stale');
    expect(late.json.preview.count).toBe(0);
    expect(late.json.confirm_token).toBeNull();
    const reused = await a.rest('POST', '/v1/agency/campaigns/import', { ...args, confirm_token: restPreview.json.confirm_token });
    expect(reused.status).toBe(409);
    expect(reused.json.error.code).toBe('confirm_token_used');

    const listed = await a.rest('GET', '/v1/agency/campaigns');
    expect(listed.json.not_imported).toEqual([]);
    expect(listed.json.campaigns).toHaveLength(3);
    expect(await campaignsOf(a.t)).toHaveLength(3);
    await a.mcp.close();
  });

  it('makes a preview stale when another import takes some of its campaigns, and the fresh token works', async () => {
    const a = await agency();
    for (const id of ['s-1', 's-2', 's-3']) await addProviderCampaign(a.t, id);
    const all = await a.tool('import_campaigns');
    expect(all.json.preview.count).toBe(3);

    const one = await a.rest('POST', '/v1/agency/campaigns/import', { provider_campaign_ids: ['s-2'] });
    const done = await a.rest('POST', '/v1/agency/campaigns/import', { provider_campaign_ids: ['s-2'], confirm_token: one.json.confirm_token });
    expect(done.status, done.text).toBe(200);
    expect(done.json.imported[0]).toMatchObject({ provider_campaign_id: 's-2', client: null });

    const stale = await a.tool('import_campaigns', { confirm_token: all.json.confirm_token });
    expect(stale.isError).toBe(true);
    expect(stale.text).toMatch(/^preview_stale: /);
    expect(stale.json.preview.campaigns.map((x: any) => x.provider_campaign_id)).toEqual(['s-1', 's-3']);
    expect(await campaignsOf(a.t)).toHaveLength(2);

    const fresh = await a.tool('import_campaigns', { confirm_token: stale.json.confirm_token });
    expect(fresh.isError, fresh.text).toBe(false);
    expect(fresh.json.imported.map((x: any) => x.provider_campaign_id)).toEqual(['s-1', 's-3']);
    expect((await auditOf(a.t)).map((e) => e.actor)).toEqual(['key:assistant', 'mcp:assistant']);
    await a.mcp.close();
  });

  it('imports once for ten confirms of the same campaign; the others are stale', async () => {
    const a = await agency();
    await addProviderCampaign(a.t, 'race-1');
    const args = { provider_campaign_ids: ['race-1'] };
    const key = await a.t.addKey({ name: 'assistant', kind: 'agency', scopes: [], rate_limit_per_minute: 1000 });
    const call = (body: unknown) => a.t.call('POST', '/v1/agency/campaigns/import', { key, body, ip: randomIp() });
    const previews: Awaited<ReturnType<typeof call>>[] = [];
    for (let i = 0; i < 10; i++) previews.push(await call(args));
    // Ten tokens for one state: whichever confirm comes first imports, every other one finds the state changed.
    // (The next test holds them inside their transactions, which only real PostgreSQL can.)
    const answers = await Promise.all(previews.map((p) => call({ ...args, confirm_token: p.json.confirm_token })));
    const codes = answers.map((r) => (r.status === 200 ? 'imported' : r.json.error.code)).sort();
    expect(codes).toEqual(['imported', ...Array(9).fill('preview_stale')]);
    expect((await campaignsOf(a.t)).filter((c) => c.providerCampaignId === 'race-1')).toHaveLength(1);
    expect(await auditOf(a.t)).toHaveLength(1);
    await a.mcp.close();
  });

  // PGlite has one connection, so only real PostgreSQL can hold the confirms in the middle of their transactions.
  it.skipIf(TIER !== 'integration')('confirms that overlap inside their transactions: one imports, the rest read it imported', async () => {
    const a = await agency();
    await addProviderCampaign(a.t, 'overlap-1');
    const args = { provider_campaign_ids: ['overlap-1'] };
    const key = await a.t.addKey({ name: 'assistant', kind: 'agency', scopes: [], rate_limit_per_minute: 1000 });
    const call = (body: unknown) => a.t.call('POST', '/v1/agency/campaigns/import', { key, body, ip: randomIp() });
    const previews: Awaited<ReturnType<typeof call>>[] = [];
    for (let i = 0; i < 5; i++) previews.push(await call(args));
    let answers: Awaited<ReturnType<typeof call>>[] = [];
    // The organization's row held FOR UPDATE stops every confirm at its first insert (the foreign key check), after
    // it read the provider campaign: so all five have read before any commits. Released once all five wait.
    await env.services.db.transaction(async (tx) => {
      await tx.execute(sql`select id from organizations where id = ${a.t.org.id}::uuid for update`);
      const pending = Promise.all(previews.map((p) => call({ ...args, confirm_token: p.json.confirm_token })));
      await waitForLockWaiters(5);
      pending.then((r) => (answers = r));
    });
    await vi.waitFor(() => expect(answers).toHaveLength(5), { timeout: 20_000 });
    const codes = answers.map((r) => (r.status === 200 ? 'imported' : r.json.error.code)).sort();
    expect(codes).toEqual(['imported', ...Array(4).fill('preview_stale')]);
    expect((await campaignsOf(a.t)).filter((c) => c.providerCampaignId === 'overlap-1')).toHaveLength(1);
    await a.mcp.close();
  });

  it("uses the organization's sending tool as provider and adopts a campaign that already has the id", async () => {
    const a = await agency();
    await env.services.db.insert(sendingProviders).values({ orgId: a.t.org.id, kind: 'smartlead' });
    const existing = await createCampaign(env.services.db, a.t.org.id, { name: 'Made by a webhook', provider: 'smartlead', provider_campaign_id: 'sl-1', client_id: null }, env.clock.now());
    await addProviderCampaign(a.t, 'sl-1');
    await addProviderCampaign(a.t, 'sl-2', { status: 'completed' });
    const clientB = await a.t.addClient('Client B');

    const p = await a.rest('POST', '/v1/agency/campaigns/import', { client_id: clientB.id });
    expect(p.json.preview.provider).toBe('smartlead');
    expect(p.json.preview.campaigns.map((x: any) => [x.provider_campaign_id, x.existing_campaign_id])).toEqual([
      ['sl-1', existing.id],
      ['sl-2', null],
    ]);
    const c = await a.rest('POST', '/v1/agency/campaigns/import', { client_id: clientB.id, confirm_token: p.json.confirm_token });
    expect(c.status, c.text).toBe(200);
    expect(c.json.imported[0]).toMatchObject({ id: existing.id, provider: 'smartlead', client: { id: clientB.id } });
    expect(c.json.imported[1]).toMatchObject({ provider: 'smartlead', provider_campaign_id: 'sl-2', status: 'completed', client: { id: clientB.id } });
    const sl = (await campaignsOf(a.t)).filter((x) => x.provider === 'smartlead');
    expect(sl).toHaveLength(2);
    await a.mcp.close();
  });

  it('refuses unknown ids by name, previews nothing to import without a token, and isolates tenants', async () => {
    const a = await agency();
    const stranger = await newTenant(env, { features: { agency_tools: true } });
    await addProviderCampaign(stranger, 'theirs-1');
    await addProviderCampaign(a.t, 'mine-1');

    const unknown = await a.rest('POST', '/v1/agency/campaigns/import', { provider_campaign_ids: ['mine-1', 'theirs-1'] });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toMatchObject({ code: 'not_found' });
    expect(unknown.json.error.message).toMatch(/^provider_campaign_ids: .*"theirs-1"/);
    expect(unknown.json.error.message).not.toMatch(/mine-1/);
    const unknownTool = await a.tool('import_campaigns', { provider_campaign_ids: ['mine-1', 'theirs-1'] });
    expect(unknownTool.json).toEqual(unknown.json);

    const theirClient = await a.tool('import_campaigns', { client_id: stranger.client.id });
    expect(theirClient.isError).toBe(true);
    expect(theirClient.json.error.code).toBe('not_found');

    const empty = await a.tool('import_campaigns', { provider_campaign_ids: [] });
    expect(empty.text).toMatch(/^validation_error: provider_campaign_ids/);

    const p = await a.tool('import_campaigns', { provider_campaign_ids: ['mine-1'] });
    await a.tool('import_campaigns', { provider_campaign_ids: ['mine-1'], confirm_token: p.json.confirm_token });
    const nothing = await a.rest('POST', '/v1/agency/campaigns/import', { provider_campaign_ids: ['mine-1'] });
    expect(nothing.status).toBe(200);
    expect(nothing.json).toMatchObject({ confirm_token: null, expires_at: null, blocked_by: 'nothing_to_import', preview: { count: 0, campaigns: [] } });
    expect(nothing.json.preview.already_imported).toEqual([{ provider_campaign_id: 'mine-1', campaign_id: expect.any(String) }]);

    // A token bound to other arguments is refused, and the stranger's row is untouched throughout.
    await addProviderCampaign(a.t, 'mine-2');
    const p2 = await a.tool('import_campaigns', { provider_campaign_ids: ['mine-2'] });
    const wrongArgs = await a.tool('import_campaigns', { provider_campaign_ids: ['mine-2'], client_id: a.t.client.id, confirm_token: p2.json.confirm_token });
    expect(wrongArgs.json.error.code).toBe('confirm_token_invalid');
    expect((await providerRows(stranger))[0].importedCampaignId).toBeNull();
    expect((await providerRows(a.t)).find((r) => r.providerCampaignId === 'mine-2')!.importedCampaignId).toBeNull();
    await a.mcp.close();
  });

  it('is refused to a read-only key before anything is read', async () => {
    const a = await agency();
    await addProviderCampaign(a.t, 'ro-1');
    const audit = await a.t.addKey({ name: 'auditor', kind: 'agency', scopes: [], read_only: true });
    const r = await a.t.call('POST', '/v1/agency/campaigns/import', { key: audit, body: {} });
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('read_only_key');
    const link = await a.t.call('PATCH', `/v1/agency/campaigns/${a.t.campaign.id}`, { key: audit, body: { client_id: null } });
    expect(link.json.error.code).toBe('read_only_key');
    const list = await a.t.call('GET', '/v1/agency/campaigns', { key: audit });
    expect(list.status).toBe(200);
    await a.mcp.close();
  });
});
