import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant, randomIp, request } from '../helpers/tenant';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const admin = (method: string, path: string, body?: unknown, token = ADMIN_TOKEN) =>
  request(env, method, path, { key: null, body, headers: { authorization: `Bearer ${token}` }, ip: randomIp() });

describe('admin API', () => {
  it('refuses a wrong or missing token with 401 and is absent (404) without ADMIN_TOKEN', async () => {
    expect((await admin('POST', '/admin/v1/orgs', { name: 'x' }, 'wrong')).status).toBe(401);
    const missing = await request(env, 'POST', '/admin/v1/orgs', { key: null, body: { name: 'x' }, ip: randomIp() });
    expect(missing.status).toBe(401);
    expect(missing.json.error.code).toBe('unauthorized');
    const { startTestEnv: start } = await import('../helpers/harness');
    const off = await start({ ADMIN_TOKEN: '' });
    try {
      const r = await request(off, 'POST', '/admin/v1/orgs', { key: null, body: { name: 'x' }, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, ip: randomIp() });
      expect(r.status).toBe(404);
      expect(r.json.error.code).toBe('not_found');
    } finally {
      await off.close();
    }
  });

  it('sets up an organization: org, client, campaign, key; the key works at once', async () => {
    const org = await admin('POST', '/admin/v1/orgs', { name: 'Acme Agency', features: { crm: true } });
    expect(org.status).toBe(201);
    expect(org.json.org).toMatchObject({ name: 'Acme Agency', features: { crm: true, agency_tools: false, studio: false }, demo: false });
    const orgId = org.json.org.id;
    const patched = await admin('PATCH', `/admin/v1/orgs/${orgId}`, { features: { studio: true }, demo: true });
    expect(patched.json.org).toMatchObject({ features: { crm: true, studio: true }, demo: true });

    const client = await admin('POST', `/admin/v1/orgs/${orgId}/clients`, { name: 'Globex' });
    expect(client.json.client.portal).toEqual({ show_hot: true, show_warm: true, show_cold: true, show_not_interested: false });
    const portal = await admin('PATCH', `/admin/v1/clients/${client.json.client.id}`, { portal: { show_not_interested: true } });
    expect(portal.json.client.portal.show_not_interested).toBe(true);

    const campaign = await admin('POST', `/admin/v1/orgs/${orgId}/campaigns`, { name: 'Launch', client_id: client.json.client.id, sent: 100, opened: 50 });
    expect(campaign.status).toBe(201);
    expect(campaign.json.campaign).toMatchObject({ name: 'Launch', status: 'active', sent: 100, replied: 0, open_rate: 0.5, client: { name: 'Globex' } });

    const key = await admin('POST', `/admin/v1/orgs/${orgId}/keys`, { name: 'zapier', scopes: ['leads.read'], autonomy_level: 1, daily_credit_limit: 500 });
    expect(key.status).toBe(201);
    expect(key.json.secret).toMatch(/^svc_live_/);
    expect(key.json.key).toMatchObject({ name: 'zapier', prefix: 'live', scopes: ['leads.read'], client_id: null, autonomy_level: 1, rate_limit_per_minute: 100, daily_credit_limit: 500, read_only: false });
    expect(JSON.stringify(key.json.key)).not.toContain(key.json.secret);

    const inbound = await admin('POST', `/admin/v1/orgs/${orgId}/inbound-replies`, {
      campaign_id: campaign.json.campaign.id,
      from_email: 'Lead@Prospect.io',
      from_name: 'Lee',
      subject: 'Re: Launch',
      body: 'Interested - can you send pricing and a few times for a call next week?',
    });
    expect(inbound.status).toBe(201);
    expect(inbound.json.reply).toMatchObject({ from_email: 'lead@prospect.io', from_name: 'Lee', campaign_name: 'Launch', classification: 'hot' });
    const leads = await request(env, 'GET', '/v1/leads', { key: key.json.secret, ip: randomIp() });
    expect(leads.json.leads[0]).toMatchObject({ email: 'lead@prospect.io', client_name: 'Globex', classification: 'hot' });

    const upgraded = await admin('PATCH', `/admin/v1/keys/${key.json.key.id}`, { autonomy_level: 2, scopes: ['leads.read', 'replies.send'] });
    expect(upgraded.json.key).toMatchObject({ autonomy_level: 2, scopes: ['leads.read', 'replies.send'] });
    const revoked = await admin('PATCH', `/admin/v1/keys/${key.json.key.id}`, { revoked: true });
    expect(revoked.json.key.revoked).toBe(true);
    expect((await request(env, 'GET', '/v1/me', { key: key.json.secret, ip: randomIp() })).status).toBe(401);
  });

  it('validates bodies, naming the field, and answers 404 for unknown objects', async () => {
    const t = await newTenant(env);
    const cases: Array<[string, string, unknown, string]> = [
      ['POST', '/admin/v1/orgs', { name: '' }, 'name'],
      ['POST', '/admin/v1/orgs', { name: 'x', features: { crm: 'yes' } }, 'features.crm'],
      ['POST', `/admin/v1/orgs/${t.org.id}/keys`, { name: 'k', rate_limit_per_minute: 5 }, 'rate_limit_per_minute'],
      ['POST', `/admin/v1/orgs/${t.org.id}/keys`, { name: 'k', daily_credit_limit: 20_000 }, 'daily_credit_limit'],
      ['POST', `/admin/v1/orgs/${t.org.id}/keys`, { name: 'k', autonomy_level: 4 }, 'autonomy_level'],
      ['POST', `/admin/v1/orgs/${t.org.id}/keys`, { name: 'k', scopes: ['leads.delete'] }, 'scopes'],
      ['POST', `/admin/v1/orgs/${t.org.id}/keys`, { name: 'k', client_id: '00000000-0000-4000-8000-000000000000' }, 'client_id'],
      ['POST', `/admin/v1/orgs/${t.org.id}/inbound-replies`, { campaign_id: t.campaign.id, from_email: 'nope', body: 'hi' }, 'from_email'],
      ['POST', `/admin/v1/orgs/${t.org.id}/inbound-replies`, { campaign_id: t.campaign.id, from_email: 'a@b.co', body: '' }, 'body'],
      ['POST', `/admin/v1/orgs/${t.org.id}/reports/generate`, { brief_type: 'sunday' }, 'brief_type'],
    ];
    for (const [method, path, body, field] of cases) {
      const r = await admin(method, path, body);
      expect(r.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(r.json.error.code).toBe('validation_error');
      expect(r.json.error.message).toContain(field);
    }
    const ghost = '00000000-0000-4000-8000-000000000000';
    expect((await admin('PATCH', `/admin/v1/orgs/${ghost}`, { demo: true })).status).toBe(404);
    expect((await admin('POST', `/admin/v1/orgs/${ghost}/clients`, { name: 'x' })).status).toBe(404);
    expect((await admin('PATCH', `/admin/v1/keys/${ghost}`, { revoked: true })).status).toBe(404);
    const other = await newTenant(env);
    const crossOrg = await admin('POST', `/admin/v1/orgs/${t.org.id}/inbound-replies`, { campaign_id: other.campaign.id, from_email: 'a@b.co', body: 'hi' });
    expect(crossOrg.status).toBe(404);
  });

  it('lists the Decision Trail per reply and lead', async () => {
    const t = await newTenant(env);
    const a = await t.reply();
    const b = await t.reply();
    await t.call('PATCH', `/v1/leads/${a.reply.id}`, { body: { notes: 'first' } });
    await t.call('PATCH', `/v1/leads/${b.reply.id}`, { body: { notes: 'second' } });
    const all = await t.admin('GET', `/admin/v1/orgs/${t.org.id}/decisions`);
    expect(all.json.decisions.map((d: { action: string }) => d.action).sort()).toEqual(['key.created', 'lead.updated', 'lead.updated']);
    const one = await t.admin('GET', `/admin/v1/orgs/${t.org.id}/decisions?reply_id=${a.reply.id}`);
    expect(one.json.decisions).toHaveLength(1);
    expect(one.json.decisions[0]).toMatchObject({ actor: 'owner key', action: 'lead.updated', reply_id: a.reply.id, detail: { changed: ['notes'] } });
    expect((await t.admin('GET', `/admin/v1/orgs/${t.org.id}/decisions?reply_id=x`)).status).toBe(400);
  });

  it('records every grant, autonomy change, revocation, provider and feature change in the trail, never a secret', async () => {
    const t = await newTenant(env);
    const trail = async () => (await t.admin('GET', `/admin/v1/orgs/${t.org.id}/decisions`)).json.decisions.filter((d: { action: string; detail: any }) => d.action !== 'key.created' || d.detail.key.name === 'sender') as Array<{ actor: string; action: string; detail: any }>;
    const created = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/keys`, { name: 'sender', scopes: ['replies.send'], autonomy_level: 1 });
    expect(created.status).toBe(201);
    const keyId = created.json.key.id;
    expect((await t.admin('PATCH', `/admin/v1/keys/${keyId}`, { autonomy_level: 2 })).status).toBe(200);
    expect((await t.admin('PATCH', `/admin/v1/keys/${keyId}`, { autonomy_level: 2 })).status).toBe(200); // no change, no row
    expect((await t.admin('PATCH', `/admin/v1/keys/${keyId}`, { revoked: true })).status).toBe(200);
    const providerSecret = 'whsec_' + Buffer.alloc(32, 7).toString('base64');
    expect((await t.admin('PUT', `/admin/v1/orgs/${t.org.id}/sending-provider`, { kind: 'http', url: 'https://mail.example.com/send', secret: providerSecret })).status).toBe(200);
    expect((await t.admin('PATCH', `/admin/v1/orgs/${t.org.id}`, { features: { crm: true } })).status).toBe(200);

    const rows = await trail();
    expect(rows.map((d) => d.action).sort()).toEqual(['key.created', 'key.revoked', 'key.updated', 'org.updated', 'sending_provider.configured']);
    const by = Object.fromEntries(rows.map((d) => [d.action, d]));
    expect(by['key.created']).toMatchObject({ actor: 'admin', detail: { key: { id: keyId, name: 'sender', scopes: ['replies.send'], autonomy_level: 1, revoked: false } } });
    expect(by['key.updated'].detail).toEqual({ key_id: keyId, key_name: 'sender', changes: { autonomy_level: { from: 1, to: 2 } } });
    expect(by['key.revoked'].detail.changes).toEqual({ revoked: { from: false, to: true } });
    expect(by['sending_provider.configured'].detail).toEqual({ from: { kind: 'outbox' }, to: { kind: 'http', url: 'https://mail.example.com/send', signed: true } });
    expect(by['org.updated'].detail.changes.features.to.crm).toBe(true);
    const text = JSON.stringify(rows);
    expect(text).not.toContain(created.json.secret);
    expect(text).not.toContain(providerSecret);
  });
});
