// Webhook endpoints: create (secret once, stored encrypted), list/get without the secret, validation, the limit of
// 10 per organization, PATCH (name, url re-checked, events, enable/disable), delivery health (last_delivery_at is
// the latest success, last_attempt_at the latest attempt), delete, and tenant isolation (404 for another org's or
// client's webhook).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decisions, webhooks } from '../../schema';
import type { TestEnv } from '../helpers/harness';
import { newTenant, type Tenant } from '../helpers/tenant';
import { startReceiver } from '../helpers/receiver';
import { drain, startWebhookEnv } from '../helpers/webhook_env';

let env: TestEnv;
beforeAll(async () => {
  env = await startWebhookEnv();
});
afterAll(() => env.close());

const body = (n = 1) => ({ name: `Hook ${n}`, url: `https://hooks.example.com/in/${n}`, events: ['lead.replied', 'reply.sent'] });
const create = (t: Tenant, b: unknown = body(), key?: string) => t.call('POST', '/v1/webhooks', { ...(key ? { key } : {}), body: b });

describe('POST /v1/webhooks', () => {
  it('answers 201 { webhook, secret } with the whsec_ secret once; the row keeps it only encrypted', async () => {
    const t = await newTenant(env);
    const r = await create(t);
    expect(r.status).toBe(201);
    expect(r.json.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(r.json.webhook).toEqual({
      id: expect.stringMatching(/^wh-[A-Za-z0-9]+$/),
      name: 'Hook 1',
      url: 'https://hooks.example.com/in/1',
      events: ['lead.replied', 'reply.sent'],
      is_active: true,
      failure_count: 0,
      disabled_reason: null,
      client_id: null,
      created_at: expect.any(String),
      last_delivery_at: null,
      last_attempt_at: null,
      last_error: null,
    });
    const [row] = await env.services.db.select().from(webhooks).where(eq(webhooks.id, r.json.webhook.id));
    expect(row.secretEnc).not.toContain(r.json.secret.slice(6));
    expect(await env.services.secrets.decrypt(row.secretEnc)).toBe(r.json.secret);

    // Neither the list nor a single read ever carries it again.
    const list = await t.call('GET', '/v1/webhooks');
    const one = await t.call('GET', `/v1/webhooks/${r.json.webhook.id}`);
    expect(list.json.webhooks).toEqual([r.json.webhook]);
    expect(one.json.webhook).toEqual(r.json.webhook);
    for (const text of [list.text, one.text]) {
      expect(text).not.toContain('whsec_');
      expect(text).not.toContain('secret');
    }
    const trail = await env.services.db.select().from(decisions).where(eq(decisions.orgId, t.org.id));
    expect(trail.map((d) => [d.action, d.actor])).toContainEqual(['webhook.created', 'owner key']);
  });

  it('refuses bad bodies with 400 validation_error naming the field', async () => {
    const t = await newTenant(env);
    const cases: Array<[unknown, RegExp]> = [
      [{ url: 'https://a.example.com', events: ['lead.replied'] }, /name/],
      [{ name: 'x', events: ['lead.replied'] }, /url/],
      [{ name: 'x', url: 'https://a.example.com' }, /events/],
      [{ name: 'x', url: 'https://a.example.com', events: [] }, /events/],
      [{ name: 'x', url: 'https://a.example.com', events: ['reply.approved'] }, /events/],
      [{ name: 'x', url: 'https://a.example.com', events: ['test.ping'] }, /events/],
      [{ name: 'x', url: 'not a url', events: ['lead.replied'] }, /url/],
      [{ name: 'x', url: 'ftp://a.example.com/x', events: ['lead.replied'] }, /url/],
      [{ ...body(), secret: 'whsec_mine' }, /secret/],
    ];
    for (const [b, field] of cases) {
      const r = await create(t, b);
      expect(r.status, JSON.stringify(b)).toBe(400);
      expect(r.json.error.code).toBe('validation_error');
      expect(r.json.error.message).toMatch(field);
    }
    expect((await t.call('GET', '/v1/webhooks')).json.webhooks).toEqual([]);
  });

  it('allows 10 webhooks per organization; the 11th is 409 webhook_limit_reached until one is deleted', async () => {
    const t = await newTenant(env);
    const ids: string[] = [];
    for (let i = 1; i <= 10; i++) {
      const r = await create(t, body(i));
      expect(r.status).toBe(201);
      ids.push(r.json.webhook.id);
    }
    const eleventh = await create(t, body(11));
    expect(eleventh.status).toBe(409);
    expect(eleventh.json.error.code).toBe('webhook_limit_reached');
    // Another organization has its own 10.
    expect((await create(await newTenant(env))).status).toBe(201);

    expect((await t.call('DELETE', `/v1/webhooks/${ids[0]}`)).json).toEqual({ deleted: true });
    expect((await create(t, body(12))).status).toBe(201);
    expect((await t.call('GET', '/v1/webhooks')).json.webhooks).toHaveLength(10);
  });

  it('also holds the limit when creates race', async () => {
    const t = await newTenant(env);
    const results = await Promise.all(Array.from({ length: 14 }, (_, i) => create(t, body(i))));
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    expect(results.filter((r) => r.status === 409)).toHaveLength(4);
  });
});

describe('PATCH and DELETE /v1/webhooks/{id}', () => {
  it('disables and re-enables; re-enabling resets failure_count and disabled_reason and keeps the secret', async () => {
    const t = await newTenant(env);
    const created = (await create(t)).json;
    const id = created.webhook.id;
    const [before] = await env.services.db.select().from(webhooks).where(eq(webhooks.id, id));
    await env.services.db.update(webhooks).set({ isActive: false, failureCount: 10, disabledReason: 'disabled after 10 consecutive failed deliveries' }).where(eq(webhooks.id, id));

    const off = await t.call('PATCH', `/v1/webhooks/${id}`, { body: { is_active: false } });
    expect(off.json.webhook).toMatchObject({ is_active: false, failure_count: 10, disabled_reason: expect.stringMatching(/10 consecutive/) });
    const on = await t.call('PATCH', `/v1/webhooks/${id}`, { body: { is_active: true } });
    expect(on.status).toBe(200);
    expect(on.json.webhook).toMatchObject({ is_active: true, failure_count: 0, disabled_reason: null });
    const [after] = await env.services.db.select().from(webhooks).where(eq(webhooks.id, id));
    expect(after.secretEnc).toBe(before.secretEnc);

    const bad = await t.call('PATCH', `/v1/webhooks/${id}`, { body: { is_active: 'yes' } });
    expect(bad.status).toBe(400);
    const extra = await t.call('PATCH', `/v1/webhooks/${id}`, { body: { is_active: true, secret: 'whsec_mine' } });
    expect(extra.status).toBe(400);
    expect(extra.json.error.message).toMatch(/secret/);
  });

  it('changes name, url and events (each alone or together); the secret and the health fields stay; the trail has both sides', async () => {
    const t = await newTenant(env);
    const created = (await create(t)).json;
    const id = created.webhook.id;
    const [before] = await env.services.db.select().from(webhooks).where(eq(webhooks.id, id));

    const renamed = await t.call('PATCH', `/v1/webhooks/${id}`, { body: { name: 'CRM bridge' } });
    expect(renamed.status).toBe(200);
    expect(renamed.json.webhook).toEqual({ ...created.webhook, name: 'CRM bridge' });
    const moved = await t.call('PATCH', `/v1/webhooks/${id}`, { body: { url: 'https://hooks.example.com/v2', events: ['lead.updated', 'lead.updated', 'assistant.suggested'] } });
    expect(moved.status).toBe(200);
    expect(moved.json.webhook).toEqual({ ...created.webhook, name: 'CRM bridge', url: 'https://hooks.example.com/v2', events: ['lead.updated', 'assistant.suggested'] });
    expect((await t.call('GET', `/v1/webhooks/${id}`)).json.webhook).toEqual(moved.json.webhook);
    const [after] = await env.services.db.select().from(webhooks).where(eq(webhooks.id, id));
    expect(after.secretEnc).toBe(before.secretEnc);

    const trail = (await env.services.db.select().from(decisions).where(eq(decisions.orgId, t.org.id))).filter((d) => d.action === 'webhook.updated');
    expect(trail.map((d) => d.detail)).toEqual([
      { webhook_id: id, changes: { name: { from: 'Hook 1', to: 'CRM bridge' } } },
      {
        webhook_id: id,
        changes: {
          url: { from: 'https://hooks.example.com/in/1', to: 'https://hooks.example.com/v2' },
          events: { from: ['lead.replied', 'reply.sent'], to: ['lead.updated', 'assistant.suggested'] },
        },
      },
    ]);
    // The same values again change nothing and record nothing.
    const same = await t.call('PATCH', `/v1/webhooks/${id}`, { body: { name: 'CRM bridge', events: ['assistant.suggested', 'lead.updated'] } });
    expect(same.json.webhook).toEqual(moved.json.webhook);
    expect((await env.services.db.select().from(decisions).where(eq(decisions.orgId, t.org.id))).filter((d) => d.action === 'webhook.updated')).toHaveLength(2);
  });

  it('validates name, url and events like create, and an empty body; a refused PATCH changes nothing', async () => {
    const t = await newTenant(env);
    const created = (await create(t)).json.webhook;
    const cases: Array<[unknown, RegExp]> = [
      [{}, /^body: give name, url, events and\/or is_active/],
      [{ name: '  ' }, /^name/],
      [{ url: 'not a url' }, /^url: not a valid URL/],
      [{ url: 'ftp://a.example.com/x' }, /^url: scheme ftp: not allowed/],
      [{ url: 'https://user:pw@hooks.example.com/x' }, /^url: URL must not contain credentials/],
      [{ events: [] }, /^events/],
      [{ events: ['test.ping'] }, /^events/],
      [{ name: 'ok', events: ['reply.approved'] }, /^events/],
    ];
    for (const [b, message] of cases) {
      const r = await t.call('PATCH', `/v1/webhooks/${created.id}`, { body: b });
      expect(r.status, JSON.stringify(b)).toBe(400);
      expect(r.json.error.code).toBe('validation_error');
      expect(r.json.error.message, JSON.stringify(b)).toMatch(message);
    }
    expect((await t.call('GET', `/v1/webhooks/${created.id}`)).json.webhook).toEqual(created);
  });

  it('checks a new url against the SSRF policy again, as at creation', async () => {
    const t = await newTenant(env);
    const created = (await create(t)).json.webhook;
    const { config } = env.services;
    const resolveHost = env.services.resolveHost;
    const dns: Record<string, string[]> = { 'hooks.example.com': ['93.184.216.34'], 'intranet.example.com': ['10.1.2.3'] };
    config.ALLOW_PRIVATE_WEBHOOK_URLS = false;
    env.services.resolveHost = async (host) => {
      if (!dns[host]) throw new Error(`ENOTFOUND ${host}`);
      return dns[host];
    };
    try {
      for (const url of ['https://127.0.0.1/hook', 'https://169.254.169.254/latest/meta-data', 'https://intranet.example.com/hook', 'https://localhost/hook', 'http://hooks.example.com/plain']) {
        const r = await t.call('PATCH', `/v1/webhooks/${created.id}`, { body: { url, name: 'moved' } });
        expect(r.status, url).toBe(400);
        expect(r.json.error.message, url).toMatch(/^url: /);
      }
      expect((await t.call('GET', `/v1/webhooks/${created.id}`)).json.webhook).toEqual(created);
      const ok = await t.call('PATCH', `/v1/webhooks/${created.id}`, { body: { url: 'https://hooks.example.com/moved' } });
      expect([ok.status, ok.json.webhook.url]).toEqual([200, 'https://hooks.example.com/moved']);
    } finally {
      config.ALLOW_PRIVATE_WEBHOOK_URLS = true;
      env.services.resolveHost = resolveHost;
    }
  });

  it('deletes permanently: later reads, updates and deletes are 404', async () => {
    const t = await newTenant(env);
    const id = (await create(t)).json.webhook.id;
    expect((await t.call('DELETE', `/v1/webhooks/${id}`)).json).toEqual({ deleted: true });
    for (const [method, path, b] of [
      ['GET', `/v1/webhooks/${id}`],
      ['PATCH', `/v1/webhooks/${id}`, { is_active: true }],
      ['DELETE', `/v1/webhooks/${id}`],
      ['POST', `/v1/webhooks/${id}/test`],
    ] as const) {
      const r = await t.call(method, path, { body: b });
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.json.error.code).toBe('not_found');
    }
  });
});

describe('delivery health: last_delivery_at is the latest success, last_attempt_at the latest attempt', () => {
  it('a failed attempt moves last_attempt_at and last_error only; a success moves last_delivery_at (automatic and manual)', async () => {
    const t = await newTenant(env);
    let status = 500;
    const rx = await startReceiver(() => ({ status, body: status === 200 ? 'ok' : 'boom' }));
    try {
      const id = (await create(t, { name: 'n', url: rx.url, events: ['lead.replied'] })).json.webhook.id;
      const hook = async () => (await t.call('GET', `/v1/webhooks/${id}`)).json.webhook;

      await t.reply();
      await drain(env);
      expect(rx.hits).toHaveLength(1);
      const failed = await hook();
      expect(failed).toMatchObject({ failure_count: 1, last_delivery_at: null, last_error: { status: 500, body: 'boom' } });
      expect(failed.last_attempt_at).toBe(failed.last_error.at);

      status = 200;
      env.clock.advance(61_000); // the first retry is due after 60 s
      await drain(env);
      expect(rx.hits).toHaveLength(2);
      const delivered = await hook();
      expect(delivered).toMatchObject({ failure_count: 0, last_error: failed.last_error });
      expect(Date.parse(delivered.last_delivery_at)).toBeGreaterThan(Date.parse(failed.last_attempt_at));
      expect(delivered.last_attempt_at).toBe(delivered.last_delivery_at);

      // A manual test that fails: the latest attempt, but not a delivery.
      status = 503;
      env.clock.advance(1_000);
      expect((await t.call('POST', `/v1/webhooks/${id}/test`)).json.delivered).toBe(false);
      const tested = await hook();
      expect(tested.last_delivery_at).toBe(delivered.last_delivery_at);
      expect(tested.last_error).toMatchObject({ status: 503 });
      expect(tested.last_attempt_at).toBe(tested.last_error.at);
      expect(Date.parse(tested.last_attempt_at)).toBeGreaterThan(Date.parse(tested.last_delivery_at));

      // And one that succeeds.
      status = 200;
      env.clock.advance(1_000);
      expect((await t.call('POST', `/v1/webhooks/${id}/test`)).json.delivered).toBe(true);
      const ok = await hook();
      expect(Date.parse(ok.last_delivery_at)).toBeGreaterThan(Date.parse(tested.last_attempt_at));
      expect(ok.last_attempt_at).toBe(ok.last_delivery_at);
      expect(ok.last_error).toEqual(tested.last_error);
    } finally {
      await rx.close();
    }
  });
});

describe('isolation', () => {
  it("answers 404 for another organization's webhook on every route and leaves it untouched", async () => {
    const victim = await newTenant(env);
    const attacker = await newTenant(env);
    const id = (await create(victim)).json.webhook.id;
    const routes = [
      ['GET', `/v1/webhooks/${id}`],
      ['PATCH', `/v1/webhooks/${id}`, { is_active: false }],
      ['DELETE', `/v1/webhooks/${id}`],
      ['POST', `/v1/webhooks/${id}/test`],
      ['GET', `/v1/webhooks/${id}/deliveries`],
      ['POST', `/v1/webhooks/${id}/redeliver`, { event_id: 'evt_x' }],
    ] as const;
    for (const [method, path, b] of routes) {
      const r = await attacker.call(method, path, { body: b });
      expect(r.status, `${method} ${path}`).toBe(404);
    }
    expect((await attacker.call('GET', '/v1/webhooks')).json.webhooks).toEqual([]);
    expect((await victim.call('GET', `/v1/webhooks/${id}`)).json.webhook.is_active).toBe(true);
  });

  it('a client-locked key sees and manages only its own client webhooks; an org key sees them all', async () => {
    const t = await newTenant(env);
    const clientB = await t.addClient('Client B');
    const lockedB = await t.addKey({ client_id: clientB.id, scopes: ['webhooks.manage'] });
    const lockedA = await t.addKey({ client_id: t.client.id, scopes: ['webhooks.manage'] });
    const orgHook = (await create(t, body(1))).json.webhook;
    const bHook = (await create(t, body(2), lockedB)).json.webhook;
    expect(bHook.client_id).toBe(clientB.id);

    expect((await t.call('GET', '/v1/webhooks', { key: lockedB })).json.webhooks.map((w: any) => w.id)).toEqual([bHook.id]);
    expect((await t.call('GET', '/v1/webhooks', { key: lockedA })).json.webhooks).toEqual([]);
    expect((await t.call('GET', '/v1/webhooks')).json.webhooks.map((w: any) => w.id).sort()).toEqual([orgHook.id, bHook.id].sort());
    expect((await t.call('GET', `/v1/webhooks/${orgHook.id}`, { key: lockedB })).status).toBe(404);
    expect((await t.call('DELETE', `/v1/webhooks/${bHook.id}`, { key: lockedA })).status).toBe(404);
    expect((await t.call('DELETE', `/v1/webhooks/${bHook.id}`, { key: lockedB })).status).toBe(200);
  });

  it('needs the webhooks.manage scope (403), and a read-only key never has it', async () => {
    const t = await newTenant(env);
    const reader = await t.addKey({ scopes: ['leads.read', 'campaigns.read'] });
    const readOnly = await t.addKey({ scopes: ['*'], read_only: true });
    for (const key of [reader, readOnly]) {
      expect((await t.call('GET', '/v1/webhooks', { key })).status).toBe(403);
      const r = await create(t, body(), key);
      expect(r.status).toBe(403);
      expect(r.json.error.code).toBe('insufficient_scope');
    }
    const scoped = await t.addKey({ scopes: ['webhooks.manage'] });
    expect((await create(t, body(), scoped)).status).toBe(201);
  });
});

describe('POST /jobs/run without QStash configuration', () => {
  it('does not exist: the embedded scheduler takes no jobs over HTTP', async () => {
    const t = await newTenant(env);
    const r = await t.call('POST', '/jobs/run', { key: null, body: { kind: 'webhook.sweep', payload: {} }, headers: { 'upstash-signature': 'x' } });
    expect(r.status).toBe(404);
    expect(r.json.error.code).toBe('not_found');
  });
});
