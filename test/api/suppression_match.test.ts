// The suppression model on the database (both tiers): which entry blocks which address, in which scope, in one
// statement; adding entries (idempotent, public suffixes refused); the send-time refusal built from a match.
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/errors';
import { addSuppression, type NewSuppression } from '../../lib/suppression/add';
import { optedOutRefusal } from '../../lib/suppression/guard';
import { findSuppressions } from '../../lib/suppression/match';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant, type Tenant } from '../helpers/tenant';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const add = (t: Tenant, e: Partial<NewSuppression> & Pick<NewSuppression, 'kind' | 'value'>) =>
  addSuppression(env.services.db, { orgId: t.org.id, clientId: null, reason: 'manual', createdBy: 'test', now: env.clock.now(), ...e });

async function blocked(t: Tenant, clientId: string | null, emails: string[]) {
  const found = await findSuppressions(env.services.db, { orgId: t.org.id, clientId, emails });
  return Object.fromEntries([...found].map(([email, s]) => [email, `${s.clientId ? 'client' : 'org'}:${s.kind}:${s.value}`]));
}

describe('findSuppressions', () => {
  it('an email entry blocks that address only, whatever its case', async () => {
    const t = await newTenant(env);
    await add(t, { kind: 'email', value: 'Ana@Acme.com' });
    expect(await blocked(t, null, ['ANA@acme.com', 'bob@acme.com', 'ana@acme.co'])).toEqual({ 'ana@acme.com': 'org:email:ana@acme.com' });
    // a +tag address reaches the same mailbox
    expect(await blocked(t, null, ['ana+news@acme.com'])).toEqual({ 'ana+news@acme.com': 'org:email:ana@acme.com' });
  });

  it('a domain entry blocks the domain and its subdomains, not look-alikes', async () => {
    const t = await newTenant(env);
    await add(t, { kind: 'domain', value: 'acme.co.uk' });
    expect(await blocked(t, null, ['a@acme.co.uk', 'b@x.sales.acme.co.uk', 'c@notacme.co.uk', 'd@acme.co.uk.evil.io', 'e@co.uk'])).toEqual({
      'a@acme.co.uk': 'org:domain:acme.co.uk',
      'b@x.sales.acme.co.uk': 'org:domain:acme.co.uk',
    });
  });

  it("a subdomain entry blocks only that subdomain's addresses", async () => {
    const t = await newTenant(env);
    await add(t, { kind: 'domain', value: 'sales.acme.com' });
    expect(await blocked(t, null, ['a@sales.acme.com', 'b@eu.sales.acme.com', 'c@acme.com', 'd@support.acme.com'])).toEqual({
      'a@sales.acme.com': 'org:domain:sales.acme.com',
      'b@eu.sales.acme.com': 'org:domain:sales.acme.com',
    });
  });

  it("client scope: the organization's entries apply to every client, a client's entries only to that client", async () => {
    const t = await newTenant(env);
    const other = await t.addClient();
    await add(t, { kind: 'email', value: 'org@x.com' });
    await add(t, { kind: 'email', value: 'a@x.com', clientId: t.client.id });
    await add(t, { kind: 'domain', value: 'b-corp.com', clientId: other.id });
    const emails = ['org@x.com', 'a@x.com', 'z@b-corp.com'];
    expect(await blocked(t, t.client.id, emails)).toEqual({ 'org@x.com': 'org:email:org@x.com', 'a@x.com': 'client:email:a@x.com' });
    expect(await blocked(t, other.id, emails)).toEqual({ 'org@x.com': 'org:email:org@x.com', 'z@b-corp.com': 'client:domain:b-corp.com' });
    expect(await blocked(t, null, emails)).toEqual({ 'org@x.com': 'org:email:org@x.com' });
  });

  it("another organization's entries never match", async () => {
    const t = await newTenant(env);
    const u = await newTenant(env);
    await add(u, { kind: 'email', value: 'ana@acme.com' });
    await add(u, { kind: 'domain', value: 'acme.com' });
    expect(await blocked(t, null, ['ana@acme.com'])).toEqual({});
    expect(await blocked(t, t.client.id, ['ana@acme.com'])).toEqual({});
  });

  it('when several entries block one address: the organization first, then the address, then the most specific domain', async () => {
    const t = await newTenant(env);
    await add(t, { kind: 'domain', value: 'acme.com', clientId: t.client.id });
    await add(t, { kind: 'email', value: 'ana@eu.acme.com', clientId: t.client.id });
    expect(await blocked(t, t.client.id, ['ana@eu.acme.com'])).toEqual({ 'ana@eu.acme.com': 'client:email:ana@eu.acme.com' });
    await add(t, { kind: 'domain', value: 'eu.acme.com' });
    expect(await blocked(t, t.client.id, ['ana@eu.acme.com'])).toEqual({ 'ana@eu.acme.com': 'org:domain:eu.acme.com' });
    await add(t, { kind: 'domain', value: 'acme.com' });
    await add(t, { kind: 'email', value: 'ana@eu.acme.com' });
    expect(await blocked(t, t.client.id, ['ana@eu.acme.com'])).toEqual({ 'ana@eu.acme.com': 'org:email:ana@eu.acme.com' });
  });

  it('a batch of 2,000 addresses is one statement', async () => {
    const t = await newTenant(env);
    await add(t, { kind: 'domain', value: 'blocked.io' });
    await add(t, { kind: 'email', value: 'p7@free.io' });
    const emails = Array.from({ length: 2000 }, (_, i) => (i % 500 === 0 ? `p${i}@eu.blocked.io` : `p${i}@free.io`));
    const before = env.services.dbStats.queries;
    const found = await findSuppressions(env.services.db, { orgId: t.org.id, clientId: t.client.id, emails });
    expect(env.services.dbStats.queries - before).toBe(1);
    expect([...found.keys()].sort()).toEqual(['p0@eu.blocked.io', 'p1000@eu.blocked.io', 'p1500@eu.blocked.io', 'p500@eu.blocked.io', 'p7@free.io']);
    expect(await findSuppressions(env.services.db, { orgId: t.org.id, clientId: null, emails: [] })).toEqual(new Map());
  });
});

describe('addSuppression', () => {
  it('is idempotent per scope and value: the second add returns null, another scope is another entry', async () => {
    const t = await newTenant(env);
    expect(await add(t, { kind: 'email', value: 'ana@acme.com' })).toMatchObject({ value: 'ana@acme.com', clientId: null });
    expect(await add(t, { kind: 'email', value: ' ANA@acme.com' })).toBeNull();
    expect(await add(t, { kind: 'email', value: 'ana@acme.com', clientId: t.client.id })).toMatchObject({ clientId: t.client.id });
    expect(await add(t, { kind: 'email', value: 'ana@acme.com', clientId: t.client.id })).toBeNull();
  });

  it('concurrent adds of one value leave one row, and exactly one of them sees it as new', async () => {
    const t = await newTenant(env);
    const value = `p${randomInt(1e9)}@acme.com`;
    const results = await Promise.all(Array.from({ length: 6 }, () => env.services.db.transaction((tx) => addSuppression(tx, { orgId: t.org.id, clientId: null, kind: 'email', value, reason: 'opt_out', createdBy: 'prospect', now: env.clock.now() }))));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await blocked(t, null, [value])).toEqual({ [value]: `org:email:${value}` });
  });

  it('refuses a public suffix or a malformed value with validation_error', async () => {
    const t = await newTenant(env);
    for (const value of ['co.uk', 'com', 'com.au']) {
      const err = await add(t, { kind: 'domain', value }).catch((e) => e);
      expect(err, value).toBeInstanceOf(ApiError);
      expect(err.code).toBe('validation_error');
      expect(err.message).toMatch(/public suffix|not a domain/);
    }
    await expect(add(t, { kind: 'email', value: 'not-an-address' })).rejects.toThrow(/not an email address/);
    expect(await blocked(t, null, ['a@x.co.uk', 'a@x.com'])).toEqual({});
  });
});

describe('optedOutRefusal', () => {
  it('409 recipient_opted_out naming the list, or null', async () => {
    const t = await newTenant(env);
    const db = env.services.db;
    await add(t, { kind: 'email', value: 'ana@acme.com', reason: 'opt_out' });
    await add(t, { kind: 'domain', value: 'rival.com', clientId: t.client.id });
    const optOut = await optedOutRefusal(db, { orgId: t.org.id, clientId: t.client.id, email: 'ana@acme.com' });
    expect(optOut).toMatchObject({ code: 'recipient_opted_out', status: 409 });
    expect(optOut!.message).toMatch(/^ana@acme\.com opted out on .*lifts the opt-out$/);
    const neverMail = await optedOutRefusal(db, { orgId: t.org.id, clientId: t.client.id, email: 'bo@rival.com' });
    expect(neverMail!.message).toMatch(/never-mail list \(its domain rival\.com/);
    expect(await optedOutRefusal(db, { orgId: t.org.id, clientId: null, email: 'bo@rival.com' })).toBeNull();
  });
});
