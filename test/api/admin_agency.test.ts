import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeCredits } from '../../lib/credits/ledger';
import { apiKeys, auditLog, creditLedger, decisions, organizations, providerCampaigns } from '../../schema';
import { ADMIN_TOKEN, startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant, randomIp, request, type Tenant } from '../helpers/tenant';

// The admin additions of agency-operator.md §5 that the agency foundation needs: the agency account's settings,
// agency keys, provider campaigns and the audit log.

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const db = () => env.services.db;
const admin = (method: string, path: string, body?: unknown, token: string | null = ADMIN_TOKEN) =>
  request(env, method, path, { key: null, body, headers: token === null ? {} : { authorization: `Bearer ${token}` }, ip: randomIp() });

const ledgerOf = (orgId: string) => db().select().from(creditLedger).where(eq(creditLedger.orgId, orgId)).orderBy(creditLedger.at, creditLedger.id);
const auditOf = (orgId: string) => db().select().from(auditLog).where(eq(auditLog.orgId, orgId));
const orgRow = async (orgId: string) => (await db().select().from(organizations).where(eq(organizations.id, orgId)))[0];
const ledgerSum = async (orgId: string) => (await ledgerOf(orgId)).reduce((sum, r) => sum + r.amount, 0);

/** A tenant with the agency tools on and an agency key named `assistant`. */
async function agencyTenant(): Promise<Tenant & { agencyKey: string; agencyKeyId: string }> {
  const t = await newTenant(env, { features: { agency_tools: true } });
  const created = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/keys`, { name: 'assistant', kind: 'agency' });
  expect(created.status).toBe(201);
  return Object.assign(t, { agencyKey: created.json.secret as string, agencyKeyId: created.json.key.id as string });
}

describe('organization settings (client limit, credits, paying, timezone, push gate, Studio pause)', () => {
  it('creates an organization with the defaults and an opening ledger row; the audit log starts empty', async () => {
    const r = await admin('POST', '/admin/v1/orgs', { name: 'Defaults Agency' });
    expect(r.status).toBe(201);
    expect(r.json.org).toMatchObject({ name: 'Defaults Agency', client_limit: 10, credits: 1000, paying: false, timezone: 'UTC', push_gate_open: false, studio_paused: false });
    const ledger = await ledgerOf(r.json.org.id);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ amount: 1000, balanceAfter: 1000, reason: 'admin.opening_balance', keyId: null });
    expect(ledger[0].reference).toMatch(/^admin:[0-9a-f-]{36}$/);
    expect(await auditOf(r.json.org.id)).toEqual([]);
  });

  it('creates an organization with every setting given, and a zero balance has no ledger row', async () => {
    const r = await admin('POST', '/admin/v1/orgs', {
      name: 'Set Agency',
      features: { agency_tools: true },
      client_limit: 3,
      credits: 0,
      paying: true,
      timezone: 'europe/berlin',
      push_gate_open: true,
      studio_paused: true,
    });
    expect(r.status).toBe(201);
    // Intl's spelling of a zone given in another case.
    expect(r.json.org).toMatchObject({ features: { agency_tools: true }, client_limit: 3, credits: 0, paying: true, timezone: 'Europe/Berlin', push_gate_open: true, studio_paused: true });
    expect(await orgRow(r.json.org.id)).toMatchObject({ clientLimit: 3, credits: 0, paying: true, timezone: 'Europe/Berlin', pushGateOpen: true, studioPaused: true });
    expect(await ledgerOf(r.json.org.id)).toEqual([]);
    // An alias stays as given: Intl would turn Asia/Kolkata into the older Asia/Calcutta.
    const alias = await admin('POST', '/admin/v1/orgs', { name: 'Alias Agency', timezone: 'Asia/Kolkata' });
    expect(alias.json.org.timezone).toBe('Asia/Kolkata');
  });

  it('changes each setting by PATCH, with one Decision Trail row and one audit row per change', async () => {
    const t = await newTenant(env);
    const patch = { client_limit: 25, paying: true, timezone: 'America/New_York', push_gate_open: true, studio_paused: true };
    const r = await t.admin('PATCH', `/admin/v1/orgs/${t.org.id}`, patch);
    expect(r.status).toBe(200);
    expect(r.json.org).toMatchObject({ id: t.org.id, credits: 1000, ...patch });
    expect(await orgRow(t.org.id)).toMatchObject({ clientLimit: 25, paying: true, timezone: 'America/New_York', pushGateOpen: true, studioPaused: true });

    const trail = await db().select().from(decisions).where(and(eq(decisions.orgId, t.org.id), eq(decisions.action, 'org.updated')));
    expect(trail).toHaveLength(1);
    const expectedChanges = {
      client_limit: { from: 10, to: 25 },
      paying: { from: false, to: true },
      timezone: { from: 'UTC', to: 'America/New_York' },
      push_gate_open: { from: false, to: true },
      studio_paused: { from: false, to: true },
    };
    expect(trail[0]).toMatchObject({ actor: 'admin', detail: { changes: expectedChanges } });
    const audit = (await auditOf(t.org.id)).filter((a) => a.action === 'org.updated');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: 'admin', target: `org:${t.org.id}`, credits: 0, detail: { changes: expectedChanges } });

    // The same values again change nothing and write nothing.
    const again = await t.admin('PATCH', `/admin/v1/orgs/${t.org.id}`, patch);
    expect(again.status).toBe(200);
    expect((await auditOf(t.org.id)).filter((a) => a.action === 'org.updated')).toHaveLength(1);
    expect(await db().select().from(decisions).where(and(eq(decisions.orgId, t.org.id), eq(decisions.action, 'org.updated')))).toHaveLength(1);
    // Switching one back flips only that one.
    const back = await t.admin('PATCH', `/admin/v1/orgs/${t.org.id}`, { studio_paused: false });
    expect(back.json.org).toMatchObject({ studio_paused: false, push_gate_open: true, client_limit: 25 });
  });

  it('sets the credit balance with a ledger row of the difference, so the ledger always sums to the balance', async () => {
    const t = await newTenant(env);
    expect(await ledgerSum(t.org.id)).toBe(1000);

    const down = await t.admin('PATCH', `/admin/v1/orgs/${t.org.id}`, { credits: 250 });
    expect(down.status).toBe(200);
    expect(down.json.org.credits).toBe(250);
    const afterDown = await ledgerOf(t.org.id);
    const set = afterDown.find((l) => l.reason === 'admin.set_balance')!;
    expect(set).toMatchObject({ amount: -750, balanceAfter: 250, keyId: null });
    expect(set.reference).toMatch(/^admin:[0-9a-f-]{36}$/);
    const audit = (await auditOf(t.org.id)).find((a) => a.action === 'org.updated')!;
    expect(audit.detail).toEqual({ changes: { credits: { from: 1000, to: 250 } }, ledger_reference: set.reference });

    // A charge moves the balance; a later set records the difference from the charged balance.
    await db().transaction((tx) => chargeCredits(tx, { orgId: t.org.id, key: null, reference: 'test:charge-1', amount: 40, reason: 'test', now: env.clock.now() }));
    expect((await orgRow(t.org.id)).credits).toBe(210);
    const up = await t.admin('PATCH', `/admin/v1/orgs/${t.org.id}`, { credits: 5000 });
    expect(up.json.org.credits).toBe(5000);
    const last = (await ledgerOf(t.org.id)).filter((l) => l.reason === 'admin.set_balance');
    expect(last.map((l) => l.amount).sort((a, b) => a - b)).toEqual([-750, 4790]);
    expect(await ledgerSum(t.org.id)).toBe(5000);

    // Setting the balance it already has writes no ledger row.
    const before = (await ledgerOf(t.org.id)).length;
    await t.admin('PATCH', `/admin/v1/orgs/${t.org.id}`, { credits: 5000 });
    expect(await ledgerOf(t.org.id)).toHaveLength(before);
    expect(new Set((await ledgerOf(t.org.id)).map((l) => l.reference)).size).toBe(before);
  });

  it('the settings take effect for the agency: account view, client limit', async () => {
    const t = await agencyTenant();
    await t.admin('PATCH', `/admin/v1/orgs/${t.org.id}`, { client_limit: 1, credits: 77, paying: true, timezone: 'Europe/Amsterdam' });
    const account = await t.call('GET', '/v1/agency/account', { key: t.agencyKey });
    expect(account.status).toBe(200);
    expect(account.json).toMatchObject({ organization: { timezone: 'Europe/Amsterdam' }, plan: { client_limit: 1, clients_used: 1, paying: true }, credits: { balance: 77 } });
    // The tenant already has one client: a limit of 1 leaves room for none.
    const refused = await t.call('POST', '/v1/agency/clients', { key: t.agencyKey, body: { name: 'One Too Many' } });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('client_limit_reached');
    await t.admin('PATCH', `/admin/v1/orgs/${t.org.id}`, { client_limit: 2 });
    expect((await t.call('POST', '/v1/agency/clients', { key: t.agencyKey, body: { name: 'One Too Many' } })).status).toBe(201);
  });

  it('refuses bad settings with 400 validation_error naming the field, and writes nothing', async () => {
    const t = await newTenant(env);
    const bad: Array<[unknown, string]> = [
      [{ timezone: 'Mars/Olympus_Mons' }, 'timezone'],
      [{ timezone: '+02:00' }, 'timezone'],
      [{ timezone: '' }, 'timezone'],
      [{ timezone: 7 }, 'timezone'],
      [{ credits: -1 }, 'credits'],
      [{ credits: 1.5 }, 'credits'],
      [{ credits: '100' }, 'credits'],
      [{ client_limit: -1 }, 'client_limit'],
      [{ client_limit: 10_001 }, 'client_limit'],
      [{ paying: 'yes' }, 'paying'],
      [{ push_gate_open: 1 }, 'push_gate_open'],
      [{ studio_paused: null }, 'studio_paused'],
      [{ colour: 'blue' }, 'colour'],
    ];
    const auditBefore = (await auditOf(t.org.id)).length;
    const ledgerBefore = (await ledgerOf(t.org.id)).length;
    for (const [body, field] of bad) {
      for (const [method, path, full] of [
        ['PATCH', `/admin/v1/orgs/${t.org.id}`, body],
        ['POST', '/admin/v1/orgs', { name: 'Refused Agency', ...(body as object) }],
      ] as const) {
        const r = await t.admin(method, path, full);
        expect(r.status, `${method} ${JSON.stringify(full)}`).toBe(400);
        expect(r.json.error.code).toBe('validation_error');
        expect(r.json.error.message.startsWith(`${field}:`) || r.json.error.message.includes(field), r.json.error.message).toBe(true);
      }
    }
    expect(await orgRow(t.org.id)).toMatchObject({ clientLimit: 10, credits: 1000, paying: false, timezone: 'UTC', pushGateOpen: false, studioPaused: false });
    expect(await auditOf(t.org.id)).toHaveLength(auditBefore);
    expect(await ledgerOf(t.org.id)).toHaveLength(ledgerBefore);
    const refusedOrgs = await db().select().from(organizations).where(eq(organizations.name, 'Refused Agency'));
    expect(refusedOrgs).toEqual([]);
  });
});

describe('agency keys', () => {
  it('an agency key always holds agency.read and agency.write plus the opt-ins asked for; an api key is kind api', async () => {
    const t = await newTenant(env, { features: { agency_tools: true } });
    const plain = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/keys`, { name: 'assistant', kind: 'agency' });
    expect(plain.status).toBe(201);
    expect(plain.json.key).toMatchObject({ name: 'assistant', kind: 'agency', scopes: ['agency.read', 'agency.write'], client_id: null, read_only: false, revoked: false });
    expect(plain.json.secret).toMatch(/^svc_live_/);

    const full = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/keys`, {
      name: 'full assistant',
      kind: 'agency',
      scopes: ['agency.plans.approve', 'replies.send', 'replies.approve', 'leads.read', 'reports.read', 'campaigns.read', 'agency.read'],
    });
    expect(full.status).toBe(201);
    expect(full.json.key.scopes).toEqual(['agency.read', 'agency.write', 'replies.send', 'replies.approve', 'leads.read', 'reports.read', 'campaigns.read', 'agency.plans.approve']);

    const api = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/keys`, { name: 'zapier', scopes: ['leads.read'] });
    expect(api.json.key).toMatchObject({ kind: 'api', scopes: ['leads.read'] });
    const explicit = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/keys`, { name: 'zapier 2', kind: 'api' });
    expect(explicit.json.key).toMatchObject({ kind: 'api', scopes: ['*'] });
    // The stored row says the same as the answer.
    const [row] = await db().select().from(apiKeys).where(eq(apiKeys.id, full.json.key.id));
    expect(row).toMatchObject({ kind: 'agency', scopes: full.json.key.scopes });
  });

  it('refuses every case the agency key rules forbid with 400 naming the problem, and creates no key', async () => {
    const t = await newTenant(env, { features: { agency_tools: true } });
    const keysBefore = (await db().select().from(apiKeys).where(eq(apiKeys.orgId, t.org.id))).length;
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ kind: 'agency', scopes: ['*'] }, ['scopes', '*']],
      [{ kind: 'agency', scopes: ['leads.write'] }, ['scopes', 'leads.write']],
      [{ kind: 'agency', scopes: ['leads.read', 'webhooks.manage'] }, ['scopes', 'webhooks.manage']],
      [{ kind: 'agency', scopes: ['suggest'] }, ['scopes', 'suggest']],
      [{ kind: 'agency', scopes: ['crm.read'] }, ['scopes', 'crm.read']],
      [{ kind: 'agency', client_id: t.client.id }, ['client_id', 'organization-wide']],
      [{ kind: 'api', scopes: ['agency.read'] }, ['scopes', 'agency.read', 'kind']],
      [{ scopes: ['leads.read', 'agency.plans.approve'] }, ['scopes', 'agency.plans.approve']],
      [{ scopes: ['*', 'agency.write'] }, ['scopes', 'agency.write']],
      [{ kind: 'robot' }, ['kind']],
      [{ kind: 'agency', scopes: ['agency.everything'] }, ['scopes']],
    ];
    for (const [body, words] of cases) {
      const r = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/keys`, { name: 'refused', ...body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.code).toBe('validation_error');
      for (const w of words) expect(r.json.error.message, JSON.stringify(body)).toContain(w);
    }
    expect(await db().select().from(apiKeys).where(eq(apiKeys.orgId, t.org.id))).toHaveLength(keysBefore);

    // The same rules hold when scopes change later.
    const agency = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/keys`, { name: 'assistant', kind: 'agency' });
    const toStar = await t.admin('PATCH', `/admin/v1/keys/${agency.json.key.id}`, { scopes: ['*'] });
    expect(toStar.status).toBe(400);
    expect(toStar.json.error.message).toContain('*');
    const apiKey = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/keys`, { name: 'zapier' });
    const toAgency = await t.admin('PATCH', `/admin/v1/keys/${apiKey.json.key.id}`, { scopes: ['agency.write'] });
    expect(toAgency.status).toBe(400);
    expect(toAgency.json.error.message).toContain('agency.write');
    const [stored] = await db().select().from(apiKeys).where(eq(apiKeys.id, agency.json.key.id));
    expect(stored.scopes).toEqual(['agency.read', 'agency.write']);
    // An allowed opt-in added later keeps the two agency scopes.
    const added = await t.admin('PATCH', `/admin/v1/keys/${agency.json.key.id}`, { scopes: ['reports.read'] });
    expect(added.json.key.scopes).toEqual(['agency.read', 'agency.write', 'reports.read']);
  });

  it('a created agency key works with both header forms; revoked (disconnected) it fails its next call with 401', async () => {
    const t = await agencyTenant();
    const viaHeader = await t.call('GET', '/v1/agency/account', { key: t.agencyKey });
    expect(viaHeader.status).toBe(200);
    expect(viaHeader.json.organization.id).toBe(t.org.id);
    const viaBearer = await t.call('GET', '/v1/agency/account', { key: null, headers: { authorization: `Bearer ${t.agencyKey}` } });
    expect(viaBearer.status).toBe(200);
    expect(viaBearer.json).toEqual(viaHeader.json);

    const revoked = await t.admin('PATCH', `/admin/v1/keys/${t.agencyKeyId}`, { revoked: true });
    expect(revoked.status).toBe(200);
    expect(revoked.json.key).toMatchObject({ kind: 'agency', revoked: true });
    for (const call of [{ key: t.agencyKey }, { key: null, headers: { authorization: `Bearer ${t.agencyKey}` } }]) {
      const r = await t.call('GET', '/v1/agency/account', call);
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toBe('Bearer');
      expect(r.json.error.code).toBe('unauthorized');
    }
    // Connecting and disconnecting the assistant are governance: the Decision Trail has both, never the secret.
    const trail = await t.admin('GET', `/admin/v1/orgs/${t.org.id}/decisions`);
    const keyRows = trail.json.decisions.filter((d: { detail: any }) => d.detail.key?.id === t.agencyKeyId || d.detail.key_id === t.agencyKeyId);
    expect(keyRows.map((d: { action: string }) => d.action).sort()).toEqual(['key.created', 'key.revoked']);
    expect(keyRows.find((d: { action: string }) => d.action === 'key.created').detail.key).toMatchObject({ kind: 'agency', scopes: ['agency.read', 'agency.write'] });
    expect(JSON.stringify(trail.json)).not.toContain(t.agencyKey);
  });

  it('read_only makes an audit key: reads pass, writes answer 403 read_only_key', async () => {
    const t = await newTenant(env, { features: { agency_tools: true } });
    const r = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/keys`, { name: 'auditor', kind: 'agency', read_only: true, scopes: ['reports.read'] });
    expect(r.status).toBe(201);
    expect(r.json.key).toMatchObject({ kind: 'agency', read_only: true, scopes: ['agency.read', 'agency.write', 'reports.read'] });
    expect((await t.call('GET', '/v1/agency/account', { key: r.json.secret })).status).toBe(200);
    const write = await t.call('POST', '/v1/agency/clients', { key: r.json.secret, body: { name: 'Nope' } });
    expect(write.status).toBe(403);
    expect(write.json.error.code).toBe('read_only_key');
  });
});

describe('provider campaigns', () => {
  it('records a campaign of the sending tool, lists it, and refuses a duplicate id with 409 naming it', async () => {
    const t = await newTenant(env);
    const path = `/admin/v1/orgs/${t.org.id}/provider-campaigns`;
    const a = await t.admin('POST', path, { name: 'Q3 founders', provider_campaign_id: 'inst-123' });
    expect(a.status).toBe(201);
    expect(a.json.provider_campaign).toEqual({
      id: expect.any(String),
      name: 'Q3 founders',
      provider_campaign_id: 'inst-123',
      status: 'active',
      imported: false,
      imported_campaign_id: null,
      created_at: expect.any(String),
    });
    const b = await t.admin('POST', path, { name: 'Old list', provider_campaign_id: 'inst-456', status: 'completed' });
    expect(b.json.provider_campaign).toMatchObject({ status: 'completed', imported: false });

    const dup = await t.admin('POST', path, { name: 'Again', provider_campaign_id: 'inst-123' });
    expect(dup.status).toBe(409);
    expect(dup.json.error.code).toBe('conflict');
    expect(dup.json.error.message).toContain('provider_campaign_id');
    expect(dup.json.error.message).toContain('inst-123');

    const list = await t.admin('GET', path);
    expect(list.status).toBe(200);
    expect(list.json.provider_campaigns.map((p: { provider_campaign_id: string }) => p.provider_campaign_id).sort()).toEqual(['inst-123', 'inst-456']);
    expect(list.json.provider_campaigns.find((p: { id: string }) => p.id === a.json.provider_campaign.id)).toEqual(a.json.provider_campaign);

    // Another organization may have the same id at its own sending tool; it never sees this one's.
    const other = await newTenant(env);
    expect((await other.admin('POST', `/admin/v1/orgs/${other.org.id}/provider-campaigns`, { name: 'Theirs', provider_campaign_id: 'inst-123' })).status).toBe(201);
    const theirs = await other.admin('GET', `/admin/v1/orgs/${other.org.id}/provider-campaigns`);
    expect(theirs.json.provider_campaigns.map((p: { name: string }) => p.name)).toEqual(['Theirs']);

    const audit = await t.admin('GET', `/admin/v1/orgs/${t.org.id}/audit?action=provider_campaign.created`);
    expect(audit.json.entries.map((e: { actor: string; target: string }) => [e.actor, e.target]).sort()).toEqual(
      [['admin', `provider_campaign:${a.json.provider_campaign.id}`], ['admin', `provider_campaign:${b.json.provider_campaign.id}`]].sort(),
    );
  });

  it('of two concurrent creates of one id exactly one succeeds', async () => {
    const t = await newTenant(env);
    const path = `/admin/v1/orgs/${t.org.id}/provider-campaigns`;
    const results = await Promise.all([1, 2, 3].map((i) => t.admin('POST', path, { name: `race ${i}`, provider_campaign_id: 'race-1' })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(await db().select().from(providerCampaigns).where(eq(providerCampaigns.orgId, t.org.id))).toHaveLength(1);
    expect((await auditOf(t.org.id)).filter((a) => a.action === 'provider_campaign.created')).toHaveLength(1);
  });

  it('validates the body naming the field and answers 404 for an unknown organization', async () => {
    const t = await newTenant(env);
    const path = `/admin/v1/orgs/${t.org.id}/provider-campaigns`;
    const cases: Array<[unknown, string]> = [
      [{ provider_campaign_id: 'x' }, 'name'],
      [{ name: '  ', provider_campaign_id: 'x' }, 'name'],
      [{ name: 'n' }, 'provider_campaign_id'],
      [{ name: 'n', provider_campaign_id: '' }, 'provider_campaign_id'],
      [{ name: 'n', provider_campaign_id: 'x'.repeat(201) }, 'provider_campaign_id'],
      [{ name: 'n', provider_campaign_id: 'x', status: 'archived' }, 'status'],
      [{ name: 'n', provider_campaign_id: 'x', provider: 'instantly' }, 'provider'],
    ];
    for (const [body, field] of cases) {
      const r = await t.admin('POST', path, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.code).toBe('validation_error');
      expect(r.json.error.message).toContain(field);
    }
    expect(await db().select().from(providerCampaigns).where(eq(providerCampaigns.orgId, t.org.id))).toEqual([]);
    const ghost = '00000000-0000-4000-8000-000000000000';
    expect((await t.admin('POST', `/admin/v1/orgs/${ghost}/provider-campaigns`, { name: 'n', provider_campaign_id: 'x' })).status).toBe(404);
    expect((await t.admin('GET', `/admin/v1/orgs/${ghost}/provider-campaigns`)).status).toBe(404);
    expect((await t.admin('GET', `/admin/v1/orgs/nope/provider-campaigns`)).status).toBe(400);
  });
});

describe('audit log', () => {
  /** Three clients created through the agency REST API, one second apart: three audit rows by key:assistant. */
  async function withClientsCreated() {
    const t = await agencyTenant();
    const ids: string[] = [];
    for (const name of ['North', 'East', 'South']) {
      env.clock.advance(1000);
      const r = await t.call('POST', '/v1/agency/clients', { key: t.agencyKey, body: { name } });
      expect(r.status).toBe(201);
      ids.push(r.json.client.id);
    }
    return { t, ids };
  }

  it('lists the entries newest first, filtered by actor and action', async () => {
    const { t, ids } = await withClientsCreated();
    env.clock.advance(1000);
    await t.admin('PATCH', `/admin/v1/orgs/${t.org.id}`, { paying: true });

    const all = await t.admin('GET', `/admin/v1/orgs/${t.org.id}/audit`);
    expect(all.status).toBe(200);
    expect(all.json.next_cursor).toBeNull();
    const entries = all.json.entries as Array<{ id: string; at: string; actor: string; action: string; target: string | null; detail: any; credits: number }>;
    expect(entries.map((e) => [e.actor, e.action])).toEqual([
      ['admin', 'org.updated'],
      ['key:assistant', 'client.created'],
      ['key:assistant', 'client.created'],
      ['key:assistant', 'client.created'],
    ]);
    const ats = entries.map((e) => Date.parse(e.at));
    expect([...ats].sort((a, b) => b - a)).toEqual(ats);
    expect(Object.keys(entries[0]).sort()).toEqual(['action', 'actor', 'at', 'credits', 'detail', 'id', 'target']);

    const byKey = await t.admin('GET', `/admin/v1/orgs/${t.org.id}/audit?actor=${encodeURIComponent('key:assistant')}`);
    expect(byKey.json.entries.map((e: { target: string }) => e.target)).toEqual([...ids].reverse().map((id) => `client:${id}`));
    expect(byKey.json.entries[0]).toMatchObject({ action: 'client.created', detail: { name: 'South' }, credits: 0 });

    const byAction = await t.admin('GET', `/admin/v1/orgs/${t.org.id}/audit?action=org.updated`);
    expect(byAction.json.entries).toHaveLength(1);
    expect(byAction.json.entries[0]).toMatchObject({ actor: 'admin', detail: { changes: { paying: { from: false, to: true } } } });

    const both = await t.admin('GET', `/admin/v1/orgs/${t.org.id}/audit?actor=admin&action=client.created`);
    expect(both.json.entries).toEqual([]);
    const nobody = await t.admin('GET', `/admin/v1/orgs/${t.org.id}/audit?actor=${encodeURIComponent('mcp:assistant')}`);
    expect(nobody.json.entries).toEqual([]);
  });

  it('pages by cursor without repeating an entry when new ones arrive between pages', async () => {
    const { t } = await withClientsCreated();
    const path = `/admin/v1/orgs/${t.org.id}/audit`;
    env.clock.advance(1000);
    await t.admin('PATCH', `/admin/v1/orgs/${t.org.id}`, { paying: true });
    const full = (await t.admin('GET', path)).json.entries.map((e: { id: string }) => e.id) as string[];
    expect(full).toHaveLength(4);

    const first = await t.admin('GET', `${path}?limit=2`);
    expect(first.json.entries.map((e: { id: string }) => e.id)).toEqual(full.slice(0, 2));
    expect(first.json.next_cursor).toBe(full[1]);
    // A write between two pages lands at the head; the next page goes on where the first ended.
    env.clock.advance(1000);
    expect((await t.call('POST', '/v1/agency/clients', { key: t.agencyKey, body: { name: 'West' } })).status).toBe(201);
    const second = await t.admin('GET', `${path}?limit=1&cursor=${first.json.next_cursor}`);
    expect(second.json.entries.map((e: { id: string }) => e.id)).toEqual(full.slice(2, 3));
    expect(second.json.next_cursor).toBe(full[2]);
    const third = await t.admin('GET', `${path}?limit=2&cursor=${second.json.next_cursor}`);
    expect(third.json.entries.map((e: { id: string }) => e.id)).toEqual(full.slice(3));
    expect(third.json.next_cursor).toBeNull();
    // The filter applies on every page: after the org.updated entry, the next key:assistant entry.
    const filtered = await t.admin('GET', `${path}?limit=1&actor=${encodeURIComponent('key:assistant')}&cursor=${full[0]}`);
    expect(filtered.json.entries.map((e: { id: string }) => e.id)).toEqual([full[1]]);
    expect(filtered.json.next_cursor).toBe(full[1]);
  });

  it('keeps the default limit of 100 and the maximum of 500', async () => {
    const t = await newTenant(env);
    await db().insert(auditLog).values(
      Array.from({ length: 120 }, (_, i) => ({ orgId: t.org.id, actor: 'system', action: 'test.tick', detail: { i }, at: new Date(Date.UTC(2030, 0, 1, 0, 0, i)) })),
    );
    const page = await t.admin('GET', `/admin/v1/orgs/${t.org.id}/audit`);
    expect(page.json.entries).toHaveLength(100);
    expect(page.json.entries[0].detail).toEqual({ i: 119 });
    expect(page.json.next_cursor).toBe(page.json.entries[99].id);
    const big = await t.admin('GET', `/admin/v1/orgs/${t.org.id}/audit?limit=500`);
    expect(big.json.entries).toHaveLength(120);
    expect(big.json.entries[119].detail).toEqual({ i: 0 });
    expect(big.json.next_cursor).toBeNull();
  });

  it('refuses bad queries naming the parameter, and shows only its own organization', async () => {
    const a = await withClientsCreated();
    const b = await agencyTenant();
    const bClient = await b.call('POST', '/v1/agency/clients', { key: b.agencyKey, body: { name: 'Theirs' } });
    expect(bClient.status).toBe(201);
    const path = `/admin/v1/orgs/${a.t.org.id}/audit`;
    const bEntry = (await a.t.admin('GET', `/admin/v1/orgs/${b.org.id}/audit`)).json.entries[0].id;
    const cases: Array<[string, string]> = [
      ['limit=0', 'limit'],
      ['limit=501', 'limit'],
      ['limit=ten', 'limit'],
      ['cursor=nope', 'cursor'],
      [`cursor=${bEntry}`, 'cursor'],
      ['cursor=00000000-0000-4000-8000-000000000000', 'cursor'],
      [`actor=${'a'.repeat(201)}`, 'actor'],
      ['action=', 'action'],
      ['limit=1&limit=2', 'limit'],
    ];
    for (const [query, name] of cases) {
      const r = await a.t.admin('GET', `${path}?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.json.error.code).toBe('validation_error');
      expect(r.json.error.message.startsWith(`${name}:`), r.json.error.message).toBe(true);
    }
    const mine = (await a.t.admin('GET', path)).json.entries as Array<{ target: string }>;
    const theirs = (await a.t.admin('GET', `/admin/v1/orgs/${b.org.id}/audit`)).json.entries as Array<{ target: string }>;
    expect(mine.map((e) => e.target).sort()).toEqual(a.ids.map((id) => `client:${id}`).sort());
    expect(theirs.map((e) => e.target)).toEqual([`client:${bClient.json.client.id}`]);
    expect((await a.t.admin('GET', '/admin/v1/orgs/00000000-0000-4000-8000-000000000000/audit')).status).toBe(404);
  });
});

describe('admin token', () => {
  it('refuses every new route and field without the admin token or with a wrong one (401), and writes nothing', async () => {
    const t = await agencyTenant();
    const routes: Array<[string, string, unknown]> = [
      ['POST', '/admin/v1/orgs', { name: 'Sneaky', credits: 1_000_000 }],
      ['PATCH', `/admin/v1/orgs/${t.org.id}`, { credits: 999_999, paying: true }],
      ['POST', `/admin/v1/orgs/${t.org.id}/keys`, { name: 'sneaky', kind: 'agency' }],
      ['PATCH', `/admin/v1/keys/${t.agencyKeyId}`, { revoked: true }],
      ['POST', `/admin/v1/orgs/${t.org.id}/provider-campaigns`, { name: 'n', provider_campaign_id: 'x' }],
      ['GET', `/admin/v1/orgs/${t.org.id}/provider-campaigns`, undefined],
      ['GET', `/admin/v1/orgs/${t.org.id}/audit`, undefined],
    ];
    const auditBefore = (await auditOf(t.org.id)).length;
    for (const [method, path, body] of routes) {
      for (const token of [null, 'wrong-token', t.agencyKey]) {
        const r = await admin(method, path, body, token);
        expect(r.status, `${method} ${path} ${token === null ? 'no token' : token.slice(0, 8)}`).toBe(401);
        expect(r.json.error.code).toBe('unauthorized');
      }
    }
    expect(await orgRow(t.org.id)).toMatchObject({ credits: 1000, paying: false });
    expect(await auditOf(t.org.id)).toHaveLength(auditBefore);
    expect((await t.call('GET', '/v1/agency/account', { key: t.agencyKey })).status).toBe(200);
    expect(await db().select().from(organizations).where(eq(organizations.name, 'Sneaky'))).toEqual([]);
  });
});
