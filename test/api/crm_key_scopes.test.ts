// crm.read / crm.write serve client-locked keys only (core §4/§5): the admin API refuses to grant them to a key
// without a client, at creation and when scopes are changed (400 naming client_id), and records nothing.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, decisions } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const MESSAGE = 'client_id: crm scopes need a client-locked key';

describe('admin keys and crm scopes', () => {
  it('POST /keys: crm scopes without client_id are 400 naming client_id; with a client they are granted', async () => {
    const t = await newTenant(env);
    const keysBefore = await env.services.db.select().from(apiKeys).where(eq(apiKeys.orgId, t.org.id));
    for (const body of [
      { name: 'CRM', scopes: ['crm.read'] },
      { name: 'CRM', scopes: ['leads.read', 'crm.write'], client_id: null },
      { name: 'CRM', scopes: ['*', 'crm.read', 'crm.write'] },
    ]) {
      const r = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/keys`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error).toEqual({ code: 'validation_error', message: MESSAGE });
    }
    expect(await env.services.db.select().from(apiKeys).where(eq(apiKeys.orgId, t.org.id))).toHaveLength(keysBefore.length);
    const ok = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/keys`, { name: 'CRM', scopes: ['crm.read', 'crm.write'], client_id: t.client.id });
    expect(ok.status).toBe(201);
    expect(ok.json.key).toMatchObject({ scopes: ['crm.read', 'crm.write'], client_id: t.client.id });
    // `*` never includes crm scopes, so an organization-wide `*` key stays fine.
    expect((await t.admin('POST', `/admin/v1/orgs/${t.org.id}/keys`, { name: 'all', scopes: ['*'] })).status).toBe(201);
  });

  it('PATCH /keys/{id} scopes: crm scopes only for a client-locked key; nothing changes on a refusal', async () => {
    const t = await newTenant(env);
    const orgWide = (await t.addKeyRecord({ name: 'org-wide', scopes: ['leads.read'] })).key;
    const locked = (await t.addKeyRecord({ name: 'locked', scopes: ['leads.read'], client_id: t.client.id })).key;
    const refused = await t.admin('PATCH', `/admin/v1/keys/${orgWide.id}`, { scopes: ['leads.read', 'crm.read'], autonomy_level: 2 });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toEqual({ code: 'validation_error', message: MESSAGE });
    const [row] = await env.services.db.select().from(apiKeys).where(eq(apiKeys.id, orgWide.id));
    expect([row.scopes, row.autonomyLevel]).toEqual([['leads.read'], 0]);
    const trail = await env.services.db.select().from(decisions).where(eq(decisions.orgId, t.org.id));
    expect(trail.filter((d) => d.action === 'key.updated')).toEqual([]);
    // Other changes of that key go through.
    expect((await t.admin('PATCH', `/admin/v1/keys/${orgWide.id}`, { autonomy_level: 1 })).status).toBe(200);

    const granted = await t.admin('PATCH', `/admin/v1/keys/${locked.id}`, { scopes: ['crm.read', 'crm.write'] });
    expect(granted.status).toBe(200);
    expect(granted.json.key).toMatchObject({ scopes: ['crm.read', 'crm.write'], client_id: t.client.id });
  });
});
