// core §4/§5: the CRM API answers only client-locked keys holding crm.read / crm.write (never implied by *) on
// organizations with the CRM feature; otherwise 403 feature_not_enabled (a missing scope: insufficient_scope).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';
import { crmTenant } from './crm_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

describe('who may use the CRM API', () => {
  it('an organization without the CRM feature: 403 feature_not_enabled, even for a locked crm key', async () => {
    const t = await newTenant(env);
    const { leadId } = await t.reply();
    const key = await t.addKey({ scopes: ['crm.read', 'crm.write'], client_id: t.client.id });
    for (const [method, path, body] of [
      ['GET', '/v1/crm/leads'],
      ['GET', `/v1/crm/leads/${leadId}`],
      ['PATCH', `/v1/crm/leads/${leadId}`, { phase: 'won' }],
      ['POST', `/v1/crm/leads/${leadId}/notes`, { text: 'x' }],
    ] as const) {
      const r = await t.call(method, path, { key, body });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.json.error.code).toBe('feature_not_enabled');
    }
  });

  it('a key not locked to a client: refused at creation (400), and one made before that rule is 403 feature_not_enabled', async () => {
    const t = await crmTenant(env);
    const refused = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/keys`, { name: 'org-wide crm', scopes: ['crm.read', 'crm.write'] });
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toMatch(/^client_id: /);
    // Such keys exist from before the rule: the CRM API still refuses them.
    const { key: row, secret } = await t.addKeyRecord({ scopes: ['leads.read'] });
    await env.services.db.update(apiKeys).set({ scopes: ['crm.read', 'crm.write'] }).where(eq(apiKeys.id, row.id));
    const r = await t.call('GET', '/v1/crm/leads', { key: secret });
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('feature_not_enabled');
  });

  it('* never grants crm scopes: a locked * key is 403 insufficient_scope', async () => {
    const t = await crmTenant(env);
    const key = await t.addKey({ scopes: ['*'], client_id: t.client.id });
    const r = await t.call('GET', '/v1/crm/leads', { key });
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('insufficient_scope');
  });

  it('crm.read reads but does not write; crm.write writes but does not read', async () => {
    const t = await crmTenant(env);
    const { leadId } = await t.lead();
    const reader = await t.addKey({ scopes: ['crm.read'], client_id: t.client.id });
    const writer = await t.addKey({ scopes: ['crm.write'], client_id: t.client.id });
    expect((await t.crm('GET', '/v1/crm/leads', undefined, reader)).status).toBe(200);
    expect((await t.crm('GET', `/v1/crm/leads/${leadId}`, undefined, reader)).status).toBe(200);
    const denied = await t.crm('PATCH', `/v1/crm/leads/${leadId}`, { phase: 'contacted' }, reader);
    expect([denied.status, denied.json.error.code]).toEqual([403, 'insufficient_scope']);
    expect((await t.crm('PATCH', `/v1/crm/leads/${leadId}`, { phase: 'contacted' }, writer)).status).toBe(200);
    expect((await t.crm('POST', `/v1/crm/leads/${leadId}/notes`, { text: 'hi' }, writer)).status).toBe(201);
    const cannotRead = await t.crm('GET', '/v1/crm/leads', undefined, writer);
    expect([cannotRead.status, cannotRead.json.error.code]).toEqual([403, 'insufficient_scope']);
  });

  it("a key locked to one client never sees another client's leads of the same organization (404)", async () => {
    const t = await crmTenant(env);
    const other = await t.addClient('Client B');
    const campaign = await t.addCampaign(other.id);
    const { leadId } = await t.reply({ campaign_id: campaign.id, from_email: 'x@other-client.com' });
    expect((await t.crm('GET', `/v1/crm/leads/${leadId}`)).status).toBe(404);
    expect((await t.crm('PATCH', `/v1/crm/leads/${leadId}`, { phase: 'won' })).status).toBe(404);
    expect((await t.crm('POST', `/v1/crm/leads/${leadId}/notes`, { text: 'x' })).status).toBe(404);
    expect((await t.crm('GET', '/v1/crm/leads')).json.leads.map((l: any) => l.id)).not.toContain(leadId);
  });
});
