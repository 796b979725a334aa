// PUT/DELETE /admin/v1/orgs/{org_id}/sim/health: an owner injects what the simulated health port reports for an
// address or a domain (upsert, field by field), removes it, is refused with a clear 4xx for bad input, another
// organization's overrides are untouched, and the health port reads what was injected. The sim tables of the
// registrar, DNS and mailbox ports answer their rows through GET /admin/v1/orgs/{org_id}/sim/{table}.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simHealthOverrides } from '../../schema';
import { ADMIN_TOKEN, startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant, randomIp, request } from '../helpers/tenant';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const admin = (method: string, path: string, body?: unknown, token: string | null = ADMIN_TOKEN) =>
  request(env, method, path, { key: null, body, headers: token === null ? {} : { authorization: `Bearer ${token}` }, ip: randomIp() });
const overridesOf = (orgId: string) => env.services.db.select().from(simHealthOverrides).where(eq(simHealthOverrides.orgId, orgId));

describe('the simulated health overrides (admin)', () => {
  it('upserts an override field by field and the health port reports it', async () => {
    const t = await newTenant(env);
    const path = `/admin/v1/orgs/${t.org.id}/sim/health`;
    const put = await admin('PUT', path, { target: 'Anna@GetAcme.com', bounce_rate: 0.08 });
    expect(put.status, put.text).toBe(200);
    expect(put.json.override).toMatchObject({ target: 'anna@getacme.com', listed: null, disconnected: null });
    expect(put.json.override.bounce_rate).toBeCloseTo(0.08, 5);
    const second = await admin('PUT', path, { target: 'anna@getacme.com', disconnected: true });
    expect(second.json.override).toMatchObject({ target: 'anna@getacme.com', disconnected: true });
    expect(second.json.override.bounce_rate).toBeCloseTo(0.08, 5);
    expect(await overridesOf(t.org.id)).toHaveLength(1);

    const [day] = await env.services.studio.warmup.health({ db: env.services.db }, t.org.id, '2026-03-02', [
      { mailbox_id: 'm1', address: 'anna@getacme.com', domain: 'getacme.com', age_days: 30, sending_day: 20, cap: 30, parked: false },
    ]);
    expect(day).toMatchObject({ connected: false, bounced: Math.round(day.sent * 0.08) });
  });

  it('removes one override by target; removing again says nothing was removed', async () => {
    const t = await newTenant(env);
    const path = `/admin/v1/orgs/${t.org.id}/sim/health`;
    await admin('PUT', path, { target: 'getacme.com', listed: true });
    await admin('PUT', path, { target: 'tryacme.com', listed: true });
    const del = await admin('DELETE', `${path}?target=GetAcme.com`);
    expect(del.status, del.text).toBe(200);
    expect(del.json).toEqual({ target: 'getacme.com', removed: true });
    expect((await admin('DELETE', `${path}?target=getacme.com`)).json.removed).toBe(false);
    expect((await overridesOf(t.org.id)).map((o) => o.target)).toEqual(['tryacme.com']);
  });

  it('refuses bad input with a 400 naming the field, and writes nothing', async () => {
    const t = await newTenant(env);
    const path = `/admin/v1/orgs/${t.org.id}/sim/health`;
    const cases: Array<[unknown, string]> = [
      [{ target: 'getacme.com', bounce_rate: 1.5 }, 'bounce_rate'],
      [{ target: 'getacme.com', bounce_rate: -0.1 }, 'bounce_rate'],
      [{ target: 'not a target', listed: true }, 'target'],
      [{ listed: true }, 'target'],
      [{ target: 'getacme.com' }, 'body'],
      [{ target: 'getacme.com', listed: 'yes' }, 'listed'],
      [{ target: 'getacme.com', listed: true, extra: 1 }, ''],
    ];
    for (const [body, field] of cases) {
      const r = await admin('PUT', path, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.code).toBe('validation_error');
      expect(r.json.error.message).toContain(field);
    }
    expect((await admin('DELETE', path)).status).toBe(400);
    expect(await overridesOf(t.org.id)).toHaveLength(0);
  });

  it('needs the admin token; an unknown organization is 404; another organization is untouched', async () => {
    const t = await newTenant(env);
    const other = await newTenant(env);
    await admin('PUT', `/admin/v1/orgs/${other.org.id}/sim/health`, { target: 'getacme.com', listed: true });
    expect((await admin('PUT', `/admin/v1/orgs/${t.org.id}/sim/health`, { target: 'getacme.com', listed: true }, null)).status).toBe(401);
    const missing = await admin('PUT', '/admin/v1/orgs/00000000-0000-4000-8000-000000000000/sim/health', { target: 'getacme.com', listed: true });
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('not_found');
    await admin('DELETE', `/admin/v1/orgs/${t.org.id}/sim/health?target=getacme.com`);
    expect(await env.services.db.select().from(simHealthOverrides).where(and(eq(simHealthOverrides.orgId, other.org.id), eq(simHealthOverrides.target, 'getacme.com')))).toHaveLength(1);
  });

  it('the registrar, DNS and mailbox sim tables answer their rows', async () => {
    const t = await newTenant(env);
    const deps = { db: env.services.db };
    const { studio } = env.services;
    const domain = `tables-${t.org.id.slice(0, 8)}`;
    const quotes = await studio.registrar.check(deps, Array.from({ length: 20 }, (_, i) => `${domain}${i}.com`));
    const free = quotes.find((q) => q.available)!;
    await studio.registrar.buy(deps, { orgId: t.org.id, domain: free.domain, reference: 'step-tables', maxPriceCents: 100_000 });
    await studio.dnsRecords.setup(deps, { orgId: t.org.id, domain: free.domain, records: [{ type: 'TXT', name: free.domain, content: 'v=spf1 ~all' }], redirectTo: 'https://acme.com' });
    const [ws] = await studio.mailboxProvider.listWorkspaces(deps, t.org.id);
    await studio.mailboxProvider.createMailbox(deps, { orgId: t.org.id, workspaceId: ws.id, address: `anna@${free.domain}`, firstName: 'Anna', lastName: 'Berg' });

    const orders = await admin('GET', `/admin/v1/orgs/${t.org.id}/sim/orders`);
    expect(orders.status, orders.text).toBe(200);
    expect(orders.json.rows).toEqual([expect.objectContaining({ kind: 'order', reference: 'step-tables', domain: free.domain, price_cents: free.price_cents, simulated: true })]);
    const records = await admin('GET', `/admin/v1/orgs/${t.org.id}/sim/dns_records`);
    expect(records.json.rows.map((r: any) => r.type).sort()).toEqual(['REDIRECT', 'TXT']);
    const mailboxes = await admin('GET', `/admin/v1/orgs/${t.org.id}/sim/mailboxes`);
    expect(mailboxes.json.rows).toEqual([expect.objectContaining({ address: `anna@${free.domain}`, workspace_id: ws.id, display_name: 'Anna Berg' })]);
    // The simulated sequencer's table answers too (nothing sequenced in this test).
    expect((await admin('GET', `/admin/v1/orgs/${t.org.id}/sim/sequencer_sends`)).json).toEqual({ rows: [] });
  });
});
