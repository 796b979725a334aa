// The never-mail check of a set of leads (agency spec §2): which entry blocks which lead, by its address, its
// company domain or its website, in the client's scope plus the organization's opt-outs; one statement per set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suppressions } from '../../schema';
import { findNeverMail, websiteHost, type LeadAddress } from '../../lib/pool/never_mail';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant, type Tenant } from '../helpers/tenant';

describe('websiteHost', () => {
  it('reads the host of a website however it is typed, without www., and refuses what has none', () => {
    expect(websiteHost('https://www.Acme.com/about?x=1')).toBe('acme.com');
    expect(websiteHost('acme.com')).toBe('acme.com');
    expect(websiteHost(' WWW.acme.co.uk ')).toBe('acme.co.uk');
    expect(websiteHost('http://shop.acme.com:8080')).toBe('shop.acme.com');
    expect(websiteHost('localhost')).toBeNull();
    expect(websiteHost('')).toBeNull();
    expect(websiteHost(null)).toBeNull();
    expect(websiteHost('http://')).toBeNull();
  });
});

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

async function entry(t: Tenant, clientId: string | null, kind: 'email' | 'domain', value: string) {
  await env.services.db.insert(suppressions).values({ orgId: t.org.id, clientId, kind, value, reason: clientId ? 'import' : 'opt_out', createdBy: 'test' });
}

/** For each lead index the entry that blocks it, as `scope:kind:value`. */
async function blocked(t: Tenant, clientId: string, leads: LeadAddress[]) {
  const found = await findNeverMail(env.services.db, { orgId: t.org.id, clientId, leads });
  return Object.fromEntries([...found].map(([i, s]) => [i, `${s.clientId ? 'client' : 'org'}:${s.kind}:${s.value}`]));
}

describe('findNeverMail', () => {
  it('an email entry blocks that address (any case, its +tag variants) and no other', async () => {
    const t = await newTenant(env);
    await entry(t, t.client.id, 'email', 'ana@acme.com');
    expect(await blocked(t, t.client.id, [{ email: 'ANA@Acme.com' }, { email: 'ana+news@acme.com' }, { email: 'bob@acme.com' }, { email: 'ana@acme.co' }, {}])).toEqual({
      0: 'client:email:ana@acme.com',
      1: 'client:email:ana@acme.com',
    });
  });

  it('a domain entry blocks every address on it and its subdomains, not its parent or a look-alike', async () => {
    const t = await newTenant(env);
    await entry(t, t.client.id, 'domain', 'sales.acme.com');
    await entry(t, t.client.id, 'domain', 'beta.io');
    expect(
      await blocked(t, t.client.id, [{ email: 'a@beta.io' }, { email: 'a@eu.mail.beta.io' }, { email: 'a@sales.acme.com' }, { email: 'a@x.sales.acme.com' }, { email: 'a@acme.com' }, { email: 'a@notbeta.io' }]),
    ).toEqual({ 0: 'client:domain:beta.io', 1: 'client:domain:beta.io', 2: 'client:domain:sales.acme.com', 3: 'client:domain:sales.acme.com' });
  });

  it("a domain entry blocks a lead by its company domain or its website host, with or without an email", async () => {
    const t = await newTenant(env);
    await entry(t, t.client.id, 'domain', 'acme.com');
    expect(
      await blocked(t, t.client.id, [
        { email: 'ceo@gmail.com', domain: 'acme.com' },
        { email: null, domain: 'www.eu.acme.com' },
        { email: 'ceo@gmail.com', website: 'https://www.acme.com/team' },
        { website: 'shop.acme.com' },
        { email: 'ceo@gmail.com', domain: 'acme.co', website: 'https://acme.com.evil.io' },
      ]),
    ).toEqual({ 0: 'client:domain:acme.com', 1: 'client:domain:acme.com', 2: 'client:domain:acme.com', 3: 'client:domain:acme.com' });
  });

  it("counts the organization's opt-outs for every client, and reports the opt-out when both scopes list a value", async () => {
    const t = await newTenant(env);
    const clientB = await t.addClient('Client B');
    await entry(t, null, 'email', 'gone@acme.com');
    await entry(t, t.client.id, 'email', 'gone@acme.com');
    await entry(t, null, 'domain', 'optout.org');
    expect(await blocked(t, t.client.id, [{ email: 'gone@acme.com' }, { email: 'x@optout.org' }])).toEqual({ 0: 'org:email:gone@acme.com', 1: 'org:domain:optout.org' });
    expect(await blocked(t, clientB.id, [{ email: 'gone@acme.com' }, { website: 'www.optout.org' }])).toEqual({ 0: 'org:email:gone@acme.com', 1: 'org:domain:optout.org' });
  });

  it("never matches another client's entries or another organization's", async () => {
    const t = await newTenant(env);
    const other = await newTenant(env);
    const clientB = await t.addClient('Client B');
    await entry(t, clientB.id, 'email', 'b-only@acme.com');
    await entry(t, clientB.id, 'domain', 'b-only.com');
    await entry(other, other.client.id, 'domain', 'acme.com');
    await entry(other, null, 'email', 'x@acme.com');
    expect(await blocked(t, t.client.id, [{ email: 'b-only@acme.com' }, { email: 'x@b-only.com' }, { email: 'x@acme.com', domain: 'acme.com' }])).toEqual({});
    expect(await blocked(t, clientB.id, [{ email: 'b-only@acme.com' }, { email: 'x@b-only.com' }])).toEqual({ 0: 'client:email:b-only@acme.com', 1: 'client:domain:b-only.com' });
  });

  it('answers a large set in one statement', async () => {
    const t = await newTenant(env);
    await entry(t, t.client.id, 'domain', 'blocked.com');
    const leads = Array.from({ length: 2_000 }, (_, i) => ({ email: `p${i}@${i % 100 === 0 ? 'blocked.com' : `free${i}.com`}`, website: `https://www.site${i}.com` }));
    const before = env.services.database.stats.queries;
    const found = await findNeverMail(env.services.db, { orgId: t.org.id, clientId: t.client.id, leads });
    expect([...found.keys()]).toEqual(Array.from({ length: 20 }, (_, k) => k * 100));
    expect(env.services.database.stats.queries - before).toBe(1);
    expect((await findNeverMail(env.services.db, { orgId: t.org.id, clientId: t.client.id, leads: [] })).size).toBe(0);
  });
});
