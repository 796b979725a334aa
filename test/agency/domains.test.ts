// The domain tools on both faces: the domain rule (defaults, two-step set with per-field replace and its audit row),
// domain_options (deterministic look-alikes at or under the rule's price, owned names skipped, nothing bought),
// workspaces (listed, chosen, unknown refused, idempotent), choose_domains (a preview that buys nothing and refuses
// a taken or too dear name; a confirm that adds buy/DNS/mailbox steps to the plan and still buys nothing), bad input
// as 400 naming the field, and another organization's client as 404.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simOffer } from '../../lib/ports/registrar/sim';
import { domainRules, domains, planSteps } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { planRows, planTenant } from '../plans/plans_helpers';
import { auditOf, freeDomain, freshStem, ordersOf, twoStep } from './domains_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const rulePath = (a: { base: string }) => `${a.base}/domain-rule`;

describe('get_domain_rule', () => {
  it('answers the defaults for a client that never set one, the same on both faces', async () => {
    const a = await planTenant(env);
    const r = await a.rest('GET', rulePath(a));
    expect(r.status, r.text).toBe(200);
    expect(r.json.domain_rule).toEqual({
      client_id: a.t.client.id,
      stems: [],
      pattern: null,
      tlds: ['com'],
      max_price_cents: 1500,
      mailboxes_per_domain: 3,
      daily_cap: 30,
      redirect_to: null,
      sender_names: [],
      workspace: null,
      updated_at: null,
      updated_by: null,
    });
    const t = await a.tool('get_domain_rule', { client_id: a.t.client.id });
    expect(t.isError, t.text).toBe(false);
    expect(t.json).toEqual(r.json);
  });

  it("another organization's client is 404 on both faces", async () => {
    const a = await planTenant(env);
    const b = await planTenant(env);
    const r = await a.rest('GET', `/v1/agency/clients/${b.t.client.id}/domain-rule`);
    expect(r.status).toBe(404);
    expect(r.json.error.code).toBe('not_found');
    const t = await a.tool('get_domain_rule', { client_id: b.t.client.id });
    expect(t.text.startsWith('not_found')).toBe(true);
  });
});

describe('set_domain_rule', () => {
  it('previews without storing, confirms with the token, replaces only the given fields, and audits', async () => {
    const a = await planTenant(env);
    const preview = await a.rest('PUT', rulePath(a), { stems: ['Acme', 'acme-lab', 'acme'], max_price_cents: 2000 });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.json.confirm_token).toEqual(expect.any(String));
    expect(preview.json.credits).toBe(0);
    expect(preview.json.preview.domain_rule).toMatchObject({ stems: ['acme', 'acme-lab'], max_price_cents: 2000, tlds: ['com'] });
    expect(preview.json.preview.changes).toEqual({ stems: [[], ['acme', 'acme-lab']], max_price_cents: [1500, 2000] });
    expect(await env.services.db.select().from(domainRules).where(eq(domainRules.clientId, a.t.client.id))).toHaveLength(0);

    const done = await a.rest('PUT', rulePath(a), { stems: ['Acme', 'acme-lab', 'acme'], max_price_cents: 2000, confirm_token: preview.json.confirm_token });
    expect(done.status, done.text).toBe(200);
    expect(done.json.domain_rule).toMatchObject({ stems: ['acme', 'acme-lab'], max_price_cents: 2000, mailboxes_per_domain: 3, updated_by: 'key:assistant' });
    expect(done.json.domain_rule.updated_at).toEqual(expect.any(String));

    // Over MCP: another field; the earlier ones stay.
    const p2 = await a.tool('set_domain_rule', { client_id: a.t.client.id, tlds: ['io', 'COM'], redirect_to: 'https://acme.example', sender_names: ['Anna  Berg', 'Jörg Müller'] });
    expect(p2.isError, p2.text).toBe(false);
    expect(p2.json.preview.changes).toEqual({ tlds: [['com'], ['io', 'com']], redirect_to: [null, 'https://acme.example'], sender_names: [[], ['Anna Berg', 'Jörg Müller']] });
    const d2 = await a.tool('set_domain_rule', { client_id: a.t.client.id, tlds: ['io', 'COM'], redirect_to: 'https://acme.example', sender_names: ['Anna  Berg', 'Jörg Müller'], confirm_token: p2.json.confirm_token });
    expect(d2.isError, d2.text).toBe(false);
    expect(d2.json.domain_rule).toMatchObject({ stems: ['acme', 'acme-lab'], max_price_cents: 2000, tlds: ['io', 'com'], redirect_to: 'https://acme.example', sender_names: ['Anna Berg', 'Jörg Müller'], updated_by: 'mcp:assistant' });

    const got = await a.rest('GET', rulePath(a));
    expect(got.json.domain_rule).toEqual(d2.json.domain_rule);
    const audit = (await auditOf(env, a.t.org.id)).filter((e) => e.action === 'domain_rule.updated');
    expect(audit.map((e) => [e.actor, e.target])).toEqual([
      ['key:assistant', `client:${a.t.client.id}`],
      ['mcp:assistant', `client:${a.t.client.id}`],
    ]);
    expect((audit[0].detail as any).changes).toEqual({ stems: [[], ['acme', 'acme-lab']], max_price_cents: [1500, 2000] });

    // Null clears a nullable field.
    const cleared = await twoStep(a, 'PUT', rulePath(a), { redirect_to: null, pattern: 'get{stem}' });
    expect(cleared.done.status, cleared.done.text).toBe(200);
    expect(cleared.done.json.domain_rule).toMatchObject({ redirect_to: null, pattern: 'get{stem}', tlds: ['io', 'com'] });
  });

  it('a token is stale once the rule changed after the preview, and used once', async () => {
    const a = await planTenant(env);
    const p1 = await a.rest('PUT', rulePath(a), { daily_cap: 40 });
    const other = await twoStep(a, 'PUT', rulePath(a), { mailboxes_per_domain: 5 });
    expect(other.done.status).toBe(200);
    const stale = await a.rest('PUT', rulePath(a), { daily_cap: 40, confirm_token: p1.json.confirm_token });
    expect(stale.status).toBe(409);
    expect(stale.json.error.code).toBe('preview_stale');
    const again = await a.rest('PUT', rulePath(a), { mailboxes_per_domain: 5, confirm_token: other.preview.confirm_token });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('confirm_token_used');
  });

  it.each([
    [{}, 'at least one field'],
    [{ stems: [] }, 'stems'],
    [{ stems: ['a'] }, 'stems'],
    [{ stems: ['ac me'] }, 'stems'],
    [{ stems: Array.from({ length: 21 }, (_, i) => `stem${i}`) }, 'stems'],
    [{ pattern: 'get' }, 'pattern'],
    [{ pattern: '{stem}{stem}' }, 'pattern'],
    [{ pattern: 'get{stem}.com' }, 'pattern'],
    [{ tlds: ['.com'] }, 'tlds'],
    [{ tlds: [] }, 'tlds'],
    [{ max_price_cents: 99 }, 'max_price_cents'],
    [{ max_price_cents: 100_001 }, 'max_price_cents'],
    [{ mailboxes_per_domain: 0 }, 'mailboxes_per_domain'],
    [{ mailboxes_per_domain: 11 }, 'mailboxes_per_domain'],
    [{ daily_cap: 201 }, 'daily_cap'],
    [{ redirect_to: 'http://acme.example' }, 'redirect_to'],
    [{ redirect_to: 'acme' }, 'redirect_to'],
    [{ sender_names: ['Anna'] }, 'sender_names'],
    [{ sender_names: Array.from({ length: 11 }, (_, i) => `Anna Berg${'x'.repeat(i)}`) }, 'sender_names'],
    [{ workspace_id: 'x' }, 'workspace_id'],
  ])('refuses %j with 400 validation_error naming the field, storing nothing', async (body, field) => {
    const a = await planTenant(env);
    const r = await a.rest('PUT', rulePath(a), body);
    expect(r.status, r.text).toBe(400);
    expect(r.json.error.code).toBe('validation_error');
    expect(r.json.error.message).toContain(field);
    const t = await a.tool('set_domain_rule', { client_id: a.t.client.id, ...body });
    expect(t.isError).toBe(true);
    expect(t.text.startsWith('validation_error')).toBe(true);
    expect(await env.services.db.select().from(domainRules).where(eq(domainRules.clientId, a.t.client.id))).toHaveLength(0);
  });

  it("another organization's client is 404, preview and confirm alike", async () => {
    const a = await planTenant(env);
    const b = await planTenant(env);
    const r = await a.rest('PUT', `/v1/agency/clients/${b.t.client.id}/domain-rule`, { daily_cap: 10 });
    expect(r.status).toBe(404);
    const t = await a.tool('set_domain_rule', { client_id: b.t.client.id, daily_cap: 10 });
    expect(t.text.startsWith('not_found')).toBe(true);
  });
});

describe('domain_options', () => {
  it('proposes free look-alikes at or under the max price, deterministically, and buys nothing', async () => {
    const a = await planTenant(env);
    const stem = freshStem();
    const r = await a.rest('GET', `${a.base}/domain-options?stems=${stem}&limit=5`);
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ stems: [stem], rule: { max_price_cents: 1500, tlds: ['com'] }, simulated: true });
    expect(r.json.patterns).toContain('get{stem}');
    expect(r.json.options.length).toBeGreaterThan(0);
    expect(r.json.options.length).toBeLessThanOrEqual(5);
    for (const o of r.json.options) {
      expect(o.domain.endsWith('.com')).toBe(true);
      expect(o.domain).toContain(stem);
      const offer = await simOffer(env.config.SIM_SEED, o.domain);
      expect(offer.available).toBe(true);
      expect(o).toEqual({ domain: o.domain, price_cents: offer.price_cents, available: true });
      expect(o.price_cents).toBeLessThanOrEqual(1500);
    }
    // Every name asked and left out is accounted for.
    expect(r.json.checked).toBe(r.json.options.length + r.json.skipped.unavailable + r.json.skipped.over_price);
    // The same call again (and over MCP) answers the same names in the same order.
    const again = await a.tool('domain_options', { client_id: a.t.client.id, stems: [stem], limit: 5 });
    expect(again.isError, again.text).toBe(false);
    expect(again.json.options).toEqual(r.json.options);
    expect(await ordersOf(env, a.t.org.id)).toHaveLength(0);
  });

  it('uses the pattern and TLDs given, the rule, then the client name; skips names the organization owns', async () => {
    const a = await planTenant(env);
    const stem = freshStem();
    const r = await a.rest('GET', `${a.base}/domain-options?stems=${stem}&pattern=try{stem}&tlds=com,net,org&limit=50`);
    expect(r.status, r.text).toBe(200);
    expect(r.json.patterns).toEqual(['try{stem}']);
    const names = r.json.options.map((o: any) => o.domain);
    for (const n of names) expect([`try${stem}.com`, `try${stem}.net`, `try${stem}.org`]).toContain(n);
    const expected: string[] = [];
    for (const tld of ['com', 'net', 'org']) {
      const offer = await simOffer(env.config.SIM_SEED, `try${stem}.${tld}`);
      if (offer.available && offer.price_cents <= 1500) expected.push(`try${stem}.${tld}`);
    }
    expect(names).toEqual(expected);

    // An owned name is skipped (and counted).
    const owned = await freeDomain(env);
    const ownedStem = owned.replace(/\.com$/, '');
    await env.services.db.insert(domains).values({ orgId: a.t.org.id, clientId: a.t.client.id, name: owned, status: 'bought', priceCents: 1000, orderRef: 'manual' });
    const o = await a.rest('GET', `${a.base}/domain-options?stems=${ownedStem}&pattern={stem}`);
    expect(o.json.options).toEqual([]);
    expect(o.json.skipped.owned).toBe(1);
    expect(o.json.checked).toBe(0);

    // From the rule, then from the client's name ("Client A" → clienta).
    const ruleStem = freshStem();
    await twoStep(a, 'PUT', `${a.base}/domain-rule`, { stems: [ruleStem], pattern: '{stem}hq' }).then((x) => expect(x.done.status).toBe(200));
    const fromRule = await a.rest('GET', `${a.base}/domain-options`);
    expect(fromRule.json.stems).toEqual([ruleStem]);
    expect(fromRule.json.patterns).toEqual(['{stem}hq']);
    const b = await planTenant(env);
    const fromName = await b.rest('GET', `${b.base}/domain-options?limit=1`);
    expect(fromName.status, fromName.text).toBe(200);
    expect(fromName.json.stems).toEqual(['clienta']);
  });

  it('keeps to the rule maximum: a low maximum leaves out what costs more', async () => {
    const a = await planTenant(env);
    await twoStep(a, 'PUT', `${a.base}/domain-rule`, { max_price_cents: 1000 }).then((x) => expect(x.done.status).toBe(200));
    const r = await a.rest('GET', `${a.base}/domain-options?stems=${freshStem()},${freshStem()}&limit=20`);
    expect(r.status, r.text).toBe(200);
    for (const o of r.json.options) expect(o.price_cents).toBeLessThanOrEqual(1000);
    expect(r.json.skipped.over_price).toBeGreaterThan(0);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=51', 'limit'],
    ['stems=a', 'stems'],
    ['pattern=get', 'pattern'],
    ['tlds=c0m', 'tlds'],
  ])('refuses %s with 400 naming the argument', async (query, field) => {
    const a = await planTenant(env);
    const r = await a.rest('GET', `${a.base}/domain-options?${query}`);
    expect(r.status, r.text).toBe(400);
    expect(r.json.error.message).toContain(field);
  });

  it("another organization's client is 404", async () => {
    const a = await planTenant(env);
    const b = await planTenant(env);
    expect((await a.rest('GET', `/v1/agency/clients/${b.t.client.id}/domain-options`)).status).toBe(404);
    expect((await a.tool('domain_options', { client_id: b.t.client.id })).text.startsWith('not_found')).toBe(true);
  });
});

describe('domain workspaces', () => {
  it('lists the provider workspaces, sets one (audited once), refuses an unknown id naming it', async () => {
    const a = await planTenant(env);
    const list = await a.rest('GET', `${a.base}/domain-workspaces`);
    expect(list.status, list.text).toBe(200);
    expect(list.json.chosen).toBeNull();
    expect(list.json.workspaces.length).toBeGreaterThan(0);
    const ws = list.json.workspaces[0];
    expect(ws).toMatchObject({ id: expect.any(String), name: expect.any(String), provider: 'sim', simulated: true });
    const mcpList = await a.tool('list_domain_workspaces', { client_id: a.t.client.id });
    expect(mcpList.json).toEqual(list.json);

    const set = await a.rest('PUT', `${a.base}/domain-workspace`, { workspace_id: ws.id });
    expect(set.status, set.text).toBe(200);
    expect(set.json).toMatchObject({ updated: true, domain_rule: { workspace: { id: ws.id, name: ws.name }, tlds: ['com'] } });
    const again = await a.tool('set_domain_workspace', { client_id: a.t.client.id, workspace_id: ws.id });
    expect(again.isError, again.text).toBe(false);
    expect(again.json.updated).toBe(false);
    expect((await a.rest('GET', `${a.base}/domain-workspaces`)).json.chosen).toBe(ws.id);
    const audit = (await auditOf(env, a.t.org.id)).filter((e) => e.action === 'domain_workspace.set');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: 'key:assistant', target: `client:${a.t.client.id}` });

    const unknown = await a.rest('PUT', `${a.base}/domain-workspace`, { workspace_id: 'ws-nope' });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('not_found');
    expect(unknown.json.error.message).toContain('ws-nope');
    const empty = await a.rest('PUT', `${a.base}/domain-workspace`, {});
    expect(empty.status).toBe(400);
    expect(empty.json.error.message).toContain('workspace_id');
    // The rule's other fields are untouched by choosing a workspace.
    const rule = await a.rest('GET', `${a.base}/domain-rule`);
    expect(rule.json.domain_rule).toMatchObject({ max_price_cents: 1500, workspace: { id: ws.id } });
  });

  it("another organization's client is 404", async () => {
    const a = await planTenant(env);
    const b = await planTenant(env);
    expect((await a.rest('GET', `/v1/agency/clients/${b.t.client.id}/domain-workspaces`)).status).toBe(404);
    const list = await b.rest('GET', `${b.base}/domain-workspaces`);
    const r = await a.rest('PUT', `/v1/agency/clients/${b.t.client.id}/domain-workspace`, { workspace_id: list.json.workspaces[0].id });
    expect(r.status).toBe(404);
  });
});

describe('choose_domains', () => {
  it('previews (nothing bought, nothing added), confirms into the plan with 3 steps per domain, still buys nothing', async () => {
    const a = await planTenant(env);
    const [d1, d2] = [await freeDomain(env), await freeDomain(env)];
    const body = { domains: [d1, d2.toUpperCase()], mailboxes_per_domain: 2 };
    const preview = await a.rest('POST', `${a.base}/domains/choose`, body);
    expect(preview.status, preview.text).toBe(200);
    expect(preview.json.confirm_token).toEqual(expect.any(String));
    const p = preview.json.preview;
    const prices = [(await simOffer(env.config.SIM_SEED, d1)).price_cents, (await simOffer(env.config.SIM_SEED, d2)).price_cents];
    expect(p.domains).toEqual([
      { domain: d1, available: true, price_cents: prices[0], problem: null },
      { domain: d2, available: true, price_cents: prices[1], problem: null },
    ]);
    expect(p).toMatchObject({ total_price_cents: prices[0] + prices[1], max_price_cents: 1500, mailboxes_per_domain: 2, mailboxes: 4, workspace: null, problems: [], simulated: true });
    expect(p.warnings.join(' ')).toContain('set_domain_workspace');
    expect(p.steps.map((s: any) => [s.kind, s.day, s.params.domain])).toEqual([
      ['buy_domain', 0, d1],
      ['setup_dns', 1, d1],
      ['create_mailboxes', 2, d1],
      ['buy_domain', 0, d2],
      ['setup_dns', 1, d2],
      ['create_mailboxes', 2, d2],
    ]);
    expect(await planRows(env, a.t.client.id)).toHaveLength(0);

    const done = await a.rest('POST', `${a.base}/domains/choose`, { ...body, confirm_token: preview.json.confirm_token });
    expect(done.status, done.text).toBe(200);
    expect(done.json.steps).toHaveLength(6);
    expect(done.json.steps.map((s: any) => [s.kind, s.status, s.buys, s.undoable])).toEqual([
      ['buy_domain', 'waiting', true, false],
      ['setup_dns', 'waiting', false, false],
      ['create_mailboxes', 'waiting', true, false],
      ['buy_domain', 'waiting', true, false],
      ['setup_dns', 'waiting', false, false],
      ['create_mailboxes', 'waiting', true, false],
    ]);
    expect(done.json.steps[0].params).toEqual({ domain: d1, max_price_cents: 1500 });
    expect(done.json.steps[2].params).toEqual({ domain: d1, count: 2 });
    expect(done.json.plan).toMatchObject({ client_id: a.t.client.id, status: 'waiting_approval' });
    // No workspace yet: the plan's dry run says so (and approval would be refused until one is chosen).
    expect(done.json.plan.dry_run.ok).toBe(false);
    expect(done.json.plan.dry_run.problems.join(' ')).toContain('set_domain_workspace');
    expect(await ordersOf(env, a.t.org.id)).toHaveLength(0);
    expect(await env.services.db.select().from(domains).where(eq(domains.orgId, a.t.org.id))).toHaveLength(0);
    const audit = (await auditOf(env, a.t.org.id)).filter((e) => e.action === 'domains.chosen');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: 'key:assistant', target: `client:${a.t.client.id}` });
    expect((audit[0].detail as any).plan_id).toBe(done.json.plan.id);

    // Choosing a workspace afterwards clears the dry-run problem on the next check.
    const ws = (await a.rest('GET', `${a.base}/domain-workspaces`)).json.workspaces[0];
    await a.rest('PUT', `${a.base}/domain-workspace`, { workspace_id: ws.id });
    const approve = await a.rest('POST', `/v1/agency/plans/${done.json.plan.id}/approve`, {});
    expect(approve.json.preview.dry_run, approve.text).toMatchObject({ ok: true, problems: [] });

    // The same domain again: already in a plan, refused by name.
    const twice = await a.tool('choose_domains', { client_id: a.t.client.id, domains: [d1] });
    expect(twice.isError, twice.text).toBe(false);
    expect(twice.json).toMatchObject({ confirm_token: null, blocked_by: 'dry_run_failed' });
    expect(twice.json.preview.problems[0]).toContain(d1);
  });

  it('a taken or too dear domain blocks the preview (no token, blocked_by dry_run_failed, the name in the problem)', async () => {
    const a = await planTenant(env);
    const free = await freeDomain(env);
    const taken = `taken-${freshStem()}.com`;
    const r = await a.rest('POST', `${a.base}/domains/choose`, { domains: [free, taken] });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ confirm_token: null, blocked_by: 'dry_run_failed' });
    expect(r.json.preview.domains[1]).toMatchObject({ domain: taken, available: false });
    expect(r.json.preview.problems).toEqual([`${taken} is not available at the registrar.`]);
    // Too dear: an .io name costs more than the default maximum.
    const io = `${freshStem()}.io`;
    const offer = await simOffer(env.config.SIM_SEED, io);
    const dear = await a.tool('choose_domains', { client_id: a.t.client.id, domains: [io] });
    expect(dear.json.blocked_by).toBe('dry_run_failed');
    expect(dear.json.preview.problems[0]).toContain(io);
    expect(dear.json.preview.problems[0]).toContain(offer.available ? 'above' : 'not available');
    // A made-up token cannot get around it.
    const forced = await a.rest('POST', `${a.base}/domains/choose`, { domains: [free, taken], confirm_token: 'ct_madeup' });
    expect(forced.status).toBe(400);
    expect(forced.json.error.code).toBe('confirm_token_invalid');
    expect(await planRows(env, a.t.client.id)).toHaveLength(0);
  });

  it('a domain the organization owns is refused by name', async () => {
    const a = await planTenant(env);
    const owned = await freeDomain(env);
    await env.services.db.insert(domains).values({ orgId: a.t.org.id, clientId: a.t.client.id, name: owned, status: 'bought', priceCents: 1000, orderRef: 'manual' });
    const r = await a.rest('POST', `${a.base}/domains/choose`, { domains: [owned] });
    expect(r.json.blocked_by).toBe('dry_run_failed');
    expect(r.json.preview.problems).toEqual([`${owned} is already bought by this client.`]);
  });

  it.each([
    [{ domains: [] }, 'domains'],
    [{ domains: ['not a domain'] }, 'domains'],
    [{ domains: ['acme.com', 'ACME.com'] }, 'domains'],
    [{ domains: Array.from({ length: 21 }, (_, i) => `d${i}x.com`) }, 'domains'],
    [{ domains: ['acme.com'], mailboxes_per_domain: 11 }, 'mailboxes_per_domain'],
    [{ domains: ['acme.com'], extra: 1 }, 'extra'],
  ])('refuses %j with 400 naming the argument', async (body, field) => {
    const a = await planTenant(env);
    const r = await a.rest('POST', `${a.base}/domains/choose`, body);
    expect(r.status, r.text).toBe(400);
    expect(r.json.error.code).toBe('validation_error');
    expect(r.json.error.message).toContain(field);
  });

  it("another organization's client is 404 on both faces; its plan is untouched", async () => {
    const a = await planTenant(env);
    const b = await planTenant(env);
    const d = await freeDomain(env);
    const r = await a.rest('POST', `/v1/agency/clients/${b.t.client.id}/domains/choose`, { domains: [d] });
    expect(r.status).toBe(404);
    const t = await a.tool('choose_domains', { client_id: b.t.client.id, domains: [d] });
    expect(t.text.startsWith('not_found')).toBe(true);
    expect(await env.services.db.select().from(planSteps).where(and(eq(planSteps.orgId, b.t.org.id)))).toHaveLength(0);
  });
});
