// POST /v1/bridge/inbound/{hook_id}: every rule and error of agency spec §4 "Bridge inbound" and
// agency-operator.md §7, on both tiers (embedded: PGlite + in-process limits; integration: PostgreSQL + Upstash).
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, bridgeHooks, leadImports, poolLeads } from '../../schema';
import { dayIn } from '../../lib/pool/day';
import { startTestEnv, TIER, type TestEnv } from '../helpers/harness';
import { addHook, bridgePost, personRow, studioTenant } from './helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const poolOf = (clientId: string) => env.services.db.select().from(poolLeads).where(eq(poolLeads.clientId, clientId));
const importsOf = (clientId: string) => env.services.db.select().from(leadImports).where(eq(leadImports.clientId, clientId));

describe('a table posting rows', () => {
  it('imports one row object into the pool and answers the counts of the request and of the day', async () => {
    const t = await studioTenant(env);
    const hook = await addHook(t);
    const row = personRow({ phone: '+49 30 1234', 'Company Size': 40 });
    const r = await bridgePost(env, hook, row);
    expect(r.status, r.text).toBe(200);
    const day = dayIn('UTC', env.clock.now());
    expect(r.json).toEqual({
      ok: true,
      received: 1,
      sent_to_pool: 1,
      unusable: 0,
      import_today: { name: `Clay ${day}`, added: 1, duplicates: 0, already_mailed: 0, waiting_for_email: 0, invalid: 0 },
    });
    const [lead] = await poolOf(t.client.id);
    expect(lead).toMatchObject({ email: row.email, firstName: 'Ana', company: row.company, orgId: t.org.id });
    expect(lead.custom).toMatchObject({ phone: '+49 30 1234' });
    expect(lead.provenance.email?.source).toBe('bridge:Clay');
    const [hookRow] = await env.services.db.select().from(bridgeHooks).where(eq(bridgeHooks.id, hook.id));
    expect(hookRow.lastReceivedAt).not.toBeNull();
  });

  it('takes the secret as a Bearer token too, and { rows: [...] } with each kind of row counted', async () => {
    const t = await studioTenant(env);
    const hook = await addHook(t);
    const rows = [
      personRow(),
      { first_name: 'Bo', last_name: 'Ek', company: 'Waiting Co' }, // no email yet: waits for the waterfall
      { phone: '+1 555 0100', note: 'only a phone' }, // neither an email nor a person and a company
      'not an object',
      {},
    ];
    const r = await bridgePost(env, { id: hook.id }, { rows }, { headers: { authorization: `Bearer ${hook.secret}` } });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ ok: true, received: 5, sent_to_pool: 2, unusable: 3 });
    expect(r.json.import_today).toMatchObject({ added: 1, waiting_for_email: 1, invalid: 1 });
    expect(await poolOf(t.client.id)).toHaveLength(2);
  });

  it('adds the same row once when it is sent twice, and import_today counts the whole import across calls', async () => {
    const t = await studioTenant(env);
    const hook = await addHook(t);
    const row = personRow();
    const first = await bridgePost(env, hook, row);
    const second = await bridgePost(env, hook, row);
    expect(second.status).toBe(200);
    expect(second.json).toMatchObject({ received: 1, sent_to_pool: 1, unusable: 0 });
    expect(second.json.import_today).toMatchObject({ name: first.json.import_today.name, added: 1, duplicates: 1 });
    const third = await bridgePost(env, hook, { rows: [personRow(), personRow()] });
    expect(third.json.import_today).toMatchObject({ added: 3, duplicates: 1 });
    expect(await poolOf(t.client.id)).toHaveLength(3);
    expect(await importsOf(t.client.id)).toHaveLength(1);
  });

  it("names the day's import in the organization's timezone and starts a new one the next day", async () => {
    const t = await studioTenant(env);
    // UTC+14: from 10:00 UTC on, Kiritimati is already on the next calendar day.
    expect((await t.admin('PATCH', `/admin/v1/orgs/${t.org.id}`, { timezone: 'Pacific/Kiritimati' })).status).toBe(200);
    const now = env.clock.now().getTime();
    const noonUtc = Math.ceil((now - 12 * 3_600_000) / 86_400_000) * 86_400_000 + 12 * 3_600_000;
    env.clock.advance(noonUtc - now + 60_000);
    const hook = await addHook(t, t.client.id, 'Sheets Bot');
    const r = await bridgePost(env, hook, personRow());
    const local = dayIn('Pacific/Kiritimati', env.clock.now());
    expect(local).not.toBe(dayIn('UTC', env.clock.now()));
    expect(r.json.import_today.name).toBe(`Sheets Bot ${local}`);
    env.clock.advance(86_400_000);
    const next = await bridgePost(env, hook, personRow());
    expect(next.json.import_today).toMatchObject({ name: `Sheets Bot ${dayIn('Pacific/Kiritimati', env.clock.now())}`, added: 1 });
    const imports = await importsOf(t.client.id);
    expect(imports.map((i) => i.source)).toEqual(['bridge:Sheets Bot', 'bridge:Sheets Bot']);
  });
});

describe('refusals', () => {
  it('401 unauthorized, with one message, for an unknown hook, a wrong or missing secret, an API key and another client\'s secret', async () => {
    const t = await studioTenant(env);
    const hook = await addHook(t);
    const otherClient = await t.addClient('Other client');
    const otherHook = await addHook(t, otherClient.id);
    const stranger = await studioTenant(env);
    const strangerHook = await addHook(stranger);
    const attempts = [
      bridgePost(env, { id: '00000000-0000-4000-8000-000000000000', secret: hook.secret }, personRow()),
      bridgePost(env, { id: 'not-a-uuid', secret: hook.secret }, personRow()),
      bridgePost(env, { id: hook.id, secret: hook.secret + 'x' }, personRow()),
      bridgePost(env, { id: hook.id }, personRow()),
      bridgePost(env, { id: hook.id }, personRow(), { headers: { 'x-service-key': t.key } }),
      bridgePost(env, { id: hook.id }, personRow(), { headers: { authorization: `Bearer ${t.key}` } }),
      bridgePost(env, { id: hook.id, secret: otherHook.secret }, personRow()),
      bridgePost(env, { id: hook.id, secret: strangerHook.secret }, personRow()),
    ];
    for (const r of await Promise.all(attempts)) {
      expect(r.status, r.text).toBe(401);
      expect(r.json.error).toEqual({ code: 'unauthorized', message: 'unknown bridge hook or wrong secret' });
    }
    expect(await poolOf(t.client.id)).toHaveLength(0);
    expect(await importsOf(t.client.id)).toHaveLength(0);
  });

  it('403 bridge_not_enabled for a disabled hook and for an organization without Studio; 423 while Studio is paused', async () => {
    const t = await studioTenant(env);
    const hook = await addHook(t);
    const off = await t.admin('PATCH', `/admin/v1/bridge-hooks/${hook.id}`, { enabled: false });
    expect(off.json.hook).toMatchObject({ id: hook.id, enabled: false });
    expect(off.json.secret).toBeUndefined();
    const disabled = await bridgePost(env, hook, personRow());
    expect([disabled.status, disabled.json.error.code]).toEqual([403, 'bridge_not_enabled']);
    await t.admin('PATCH', `/admin/v1/bridge-hooks/${hook.id}`, { enabled: true });

    await t.admin('PATCH', `/admin/v1/orgs/${t.org.id}`, { studio_paused: true });
    const paused = await bridgePost(env, hook, personRow());
    expect([paused.status, paused.json.error.code]).toEqual([423, 'studio_paused']);
    await t.admin('PATCH', `/admin/v1/orgs/${t.org.id}`, { studio_paused: false, features: { studio: false } });
    const noStudio = await bridgePost(env, hook, personRow());
    expect([noStudio.status, noStudio.json.error.code]).toEqual([403, 'bridge_not_enabled']);
    expect(await poolOf(t.client.id)).toHaveLength(0);

    await t.admin('PATCH', `/admin/v1/orgs/${t.org.id}`, { features: { studio: true } });
    expect((await bridgePost(env, hook, personRow())).status).toBe(200);
  });

  it('413 payload_too_large over 100 rows or over 256 KB; 400 for a body that is not one row or { rows }', async () => {
    const t = await studioTenant(env);
    const hook = await addHook(t);
    const many = await bridgePost(env, hook, { rows: Array.from({ length: 101 }, () => personRow()) });
    expect([many.status, many.json.error.code]).toEqual([413, 'payload_too_large']);
    const hundred = await bridgePost(env, hook, { rows: Array.from({ length: 100 }, () => personRow()) });
    expect(hundred.status, hundred.text).toBe(200);
    const big = await bridgePost(env, hook, personRow({ notes: 'x'.repeat(257 * 1024) }));
    expect([big.status, big.json.error.code]).toEqual([413, 'payload_too_large']);
    for (const raw of ['{"email": ', '[{"email":"a@b.com"}]', '"text"']) {
      const r = await bridgePost(env, hook, undefined, { raw });
      expect([r.status, r.json.error.code], raw).toEqual([400, 'validation_error']);
    }
    expect(await poolOf(t.client.id)).toHaveLength(100);
  });

  it('422 no_usable_row when no row has an email or a person and a company, and writes nothing', async () => {
    const t = await studioTenant(env);
    const hook = await addHook(t);
    for (const body of [{ rows: [{ phone: '+1 555 0100' }, 42, { company: 'Only Co' }] }, {}, { rows: [] }, { email: 'not an email' }]) {
      const r = await bridgePost(env, hook, body);
      expect([r.status, r.json.error.code], JSON.stringify(body)).toEqual([422, 'no_usable_row']);
    }
    expect(await poolOf(t.client.id)).toHaveLength(0);
    expect(await importsOf(t.client.id)).toHaveLength(0);
    const [hookRow] = await env.services.db.select().from(bridgeHooks).where(eq(bridgeHooks.id, hook.id));
    expect(hookRow.lastReceivedAt).toBeNull();
  });
});

describe('the rate of 1,200 rows per minute per client', () => {
  it('counts rows, not requests: twelve requests of 100 rows fill the minute; another client keeps its own', async () => {
    const t = await studioTenant(env);
    const hook = await addHook(t);
    const other = await studioTenant(env);
    const otherHook = await addHook(other);
    const { freshLimitWindow } = await import('../helpers/harness');
    await freshLimitWindow(env);
    for (let i = 0; i < 12; i++) {
      const r = await bridgePost(env, hook, { rows: Array.from({ length: 100 }, () => personRow()) });
      expect(r.status, `request ${i}: ${r.text}`).toBe(200);
    }
    const over = await bridgePost(env, hook, personRow());
    expect([over.status, over.json.error.code]).toEqual([429, 'rate_limit_exceeded']);
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await bridgePost(env, otherHook, personRow())).status).toBe(200);
    // A second hook of the same client shares the client's rows per minute.
    const second = await addHook(t, t.client.id, 'Second tool');
    expect((await bridgePost(env, second, personRow())).status).toBe(429);
    expect(await poolOf(t.client.id)).toHaveLength(1200);
  }, 120_000);

  it.skipIf(TIER !== 'embedded')('lets rows in again once the minute is over', async () => {
    const t = await studioTenant(env);
    const hook = await addHook(t);
    const { freshLimitWindow } = await import('../helpers/harness');
    await freshLimitWindow(env);
    await env.services.limits.check([{ name: 'bridge_rows', id: t.client.id, limit: 1200, windowSec: 60, weight: 1200 }]);
    expect((await bridgePost(env, hook, personRow())).status).toBe(429);
    env.clock.advance(60_000);
    expect((await bridgePost(env, hook, personRow())).status).toBe(200);
  });
});

describe('admin: bridge hooks', () => {
  it('shows the secret once, stores only its hash, audits as admin, and 404s an unknown client or hook', async () => {
    const t = await studioTenant(env);
    const created = await t.admin('POST', `/admin/v1/clients/${t.client.id}/bridge-hooks`, { tool_name: 'Clay' });
    expect(created.status).toBe(201);
    expect(created.json.hook).toMatchObject({ tool_name: 'Clay', enabled: true, client_id: t.client.id });
    expect(created.json.hook.url).toBe(`${env.config.publicBaseUrl}/v1/bridge/inbound/${created.json.hook.id}`);
    expect(created.json.secret).toMatch(/^brsec_[A-Za-z0-9]{30,}$/);
    const [row] = await env.services.db.select().from(bridgeHooks).where(eq(bridgeHooks.id, created.json.hook.id));
    expect(row.secretHash).not.toContain(created.json.secret);
    expect(row.secretHash).toMatch(/^[0-9a-f]{64}$/);
    const audit = await env.services.db.select().from(auditLog).where(and(eq(auditLog.orgId, t.org.id), eq(auditLog.action, 'bridge_hook.created')));
    expect(audit).toHaveLength(1);
    expect(audit[0].actor).toBe('admin');
    expect(JSON.stringify(audit[0].detail)).not.toContain(created.json.secret);

    const disabledAtStart = await t.admin('POST', `/admin/v1/clients/${t.client.id}/bridge-hooks`, { tool_name: 'Sheets', enabled: false });
    expect(disabledAtStart.json.hook.enabled).toBe(false);
    const missing = await t.admin('POST', `/admin/v1/clients/00000000-0000-4000-8000-000000000000/bridge-hooks`, { tool_name: 'Clay' });
    expect([missing.status, missing.json.error.code]).toEqual([404, 'not_found']);
    const badPatch = await t.admin('PATCH', `/admin/v1/bridge-hooks/00000000-0000-4000-8000-000000000000`, { enabled: true });
    expect(badPatch.status).toBe(404);
    const noName = await t.admin('POST', `/admin/v1/clients/${t.client.id}/bridge-hooks`, { tool_name: '  ' });
    expect([noName.status, noName.json.error.code]).toEqual([400, 'validation_error']);
  });
});

describe.skipIf(TIER !== 'embedded')('the database failing mid-import', () => {
  it('answers 503 service_unavailable and leaves no lead, import or stamp behind', async () => {
    const t = await studioTenant(env);
    const hook = await addHook(t);
    const pg = (env.services.database as unknown as { pg: { transaction: Function } }).pg;
    const original = pg.transaction.bind(pg);
    pg.transaction = (fn: (tx: any) => Promise<unknown>) =>
      original((tx: any) => {
        const query = tx.query.bind(tx);
        tx.query = (text: string, ...rest: unknown[]) => {
          if (/update "bridge_hooks"/i.test(text)) throw Object.assign(new Error('Connection terminated unexpectedly'), { code: '57P01' });
          return query(text, ...rest);
        };
        return fn(tx);
      });
    try {
      const r = await bridgePost(env, hook, personRow());
      expect([r.status, r.json.error.code]).toEqual([503, 'service_unavailable']);
    } finally {
      pg.transaction = original;
    }
    expect(await poolOf(t.client.id)).toHaveLength(0);
    expect(await importsOf(t.client.id)).toHaveLength(0);
    expect((await bridgePost(env, hook, personRow())).status).toBe(200);
  });
});
