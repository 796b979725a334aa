// The production DNS adapter (lib/ports/dns_records/cloudflare.ts) against a local fake of Cloudflare's API v4
// (test/infra/fake_cloudflare.ts): the documented requests (Bearer token, zone lookup then creation with the account,
// records looked up by type and name before creating, the redirect as the dynamic-redirect entrypoint's one rule),
// a repeated setup creating nothing, and the mapping of 429 (Retry-After), 5xx, timeouts and refusals, no token in
// any detail.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config';
import { dnsRecordsFor } from '../../lib/infra/dns_plan';
import { createDnsRecords } from '../../lib/ports/dns_records';
import { createCloudflareDnsRecords } from '../../lib/ports/dns_records/cloudflare';
import { startFakeCloudflare, type FakeCloudflare } from '../infra/fake_cloudflare';

const TOKEN = 'cf-test-token-8d9e7f';
const ACCOUNT = 'acc0123456789';
let fake: FakeCloudflare;
beforeAll(async () => {
  fake = await startFakeCloudflare({ apiToken: TOKEN, accountId: ACCOUNT });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const dns = (o: { timeoutMs?: number; token?: string } = {}) => createCloudflareDnsRecords({ apiToken: o.token ?? TOKEN, accountId: ACCOUNT, baseUrl: `${fake.url}/client/v4`, timeoutMs: o.timeoutMs });
const deps = { db: null as never };
const setup = async (d = dns(), redirectTo: string | null = 'https://acme.com') => d.setup(deps, { orgId: 'org', domain: 'getacme.com', records: await dnsRecordsFor('getacme.com'), redirectTo });

describe('Cloudflare as the DNS host', () => {
  it('creates the zone with the account, each record once, and the redirect rule', async () => {
    expect(await setup()).toEqual({ ok: true, created: 4, existing: 0 });
    expect(fake.zoneNamed('getacme.com')).toMatchObject({ account: { id: ACCOUNT } });
    const zoneCreate = fake.requests.find((r) => r.method === 'POST' && r.path === '/client/v4/zones');
    expect(zoneCreate?.json).toEqual({ name: 'getacme.com', account: { id: ACCOUNT }, type: 'full' });
    expect(fake.requests.every((r) => r.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
    const recs = fake.recordsOf('getacme.com');
    expect(recs.map((r) => `${r.type} ${r.name}`).sort()).toEqual(['MX getacme.com', 'TXT _dmarc.getacme.com', 'TXT getacme.com', 'TXT google._domainkey.getacme.com']);
    expect(recs.find((r) => r.type === 'MX')).toMatchObject({ content: 'smtp.google.com', priority: 1 });
    // Each record is looked up by type and full name before it is created.
    const lookups = fake.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/dns_records'));
    expect(lookups.map((r) => r.query)).toContainEqual({ type: 'TXT', name: '_dmarc.getacme.com' });
    const [rule] = fake.redirectOf('getacme.com') as any[];
    expect(rule).toMatchObject({ action: 'redirect', action_parameters: { from_value: { status_code: 301, target_url: { value: 'https://acme.com' } } } });
    expect(rule.expression).toContain('"getacme.com"');
  });

  it('a repeated setup finds the zone and the records and creates nothing; no redirect without a target', async () => {
    await setup();
    fake.requests.length = 0;
    expect(await setup(dns(), null)).toEqual({ ok: true, created: 0, existing: 4 });
    expect(fake.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    expect(fake.requests.some((r) => r.method === 'PUT')).toBe(false);
  });

  it('429 is rate_limited with Retry-After; 5xx, timeouts and a refused token are errors; no token in a detail', async () => {
    fake.setFailure({ status: 429, retryAfterSec: 7 }, 1);
    const limited = await setup();
    expect(limited).toMatchObject({ ok: false, reason: 'rate_limited', retry_after_sec: 7 });
    fake.setFailure({ status: 502 });
    const failed = await setup();
    expect(failed).toMatchObject({ ok: false, reason: 'error' });
    expect(!failed.ok && failed.detail).toContain('502');
    fake.setFailure({ slowMs: 1_000 });
    const slow = await setup(dns({ timeoutMs: 100 }));
    expect(slow).toMatchObject({ ok: false, reason: 'error' });
    expect(!slow.ok && slow.detail).toMatch(/timeout/);
    fake.setFailure(null);
    const refused = await setup(dns({ token: 'wrong-token-123' }));
    expect(refused).toMatchObject({ ok: false, reason: 'error' });
    expect(!refused.ok && refused.detail).toContain('9109');
    for (const r of [limited, failed, slow, refused]) expect(r.ok ? '' : r.detail).not.toContain(TOKEN);
    // After the failures, a setup completes: the work is idempotent.
    expect(await setup()).toMatchObject({ ok: true });
    expect(fake.recordsOf('getacme.com')).toHaveLength(4);
  });

  it('refuses to start with DNS_RECORDS=cloudflare without the token and the account id', () => {
    expect(() => createDnsRecords(loadConfig({ DNS_RECORDS: 'cloudflare', CLOUDFLARE_API_TOKEN: TOKEN }))).toThrow(/CLOUDFLARE_ACCOUNT_ID/);
    expect(() => createDnsRecords(loadConfig({ DNS_RECORDS: 'cloudflare', CLOUDFLARE_ACCOUNT_ID: ACCOUNT }))).toThrow(/CLOUDFLARE_API_TOKEN/);
    expect(createDnsRecords(loadConfig({ DNS_RECORDS: 'cloudflare', CLOUDFLARE_API_TOKEN: TOKEN, CLOUDFLARE_ACCOUNT_ID: ACCOUNT })).kind).toBe('cloudflare');
  });
});
