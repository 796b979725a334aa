// The simulated DNS host: each record a `sim_dns_records` row per organization, domain, type and name (relative names
// completed with the domain), a repeated setup finding its records `existing`, the redirect a REDIRECT row.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsRecordsFor } from '../../lib/infra/dns_plan';
import { createSimDnsRecords, fullName, REDIRECT_TYPE } from '../../lib/ports/dns_records/sim';
import { simDnsRecords } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';

let env: TestEnv;
let orgId: string;
let otherOrgId: string;
beforeAll(async () => {
  env = await startTestEnv();
  orgId = (await newTenant(env)).org.id;
  otherOrgId = (await newTenant(env)).org.id;
});
afterAll(() => env.close());

const deps = () => ({ db: env.services.db });
const rowsOf = (org: string, domain: string) => env.services.db.select().from(simDnsRecords).where(and(eq(simDnsRecords.orgId, org), eq(simDnsRecords.domain, domain)));

describe('the simulated DNS records', () => {
  it('writes SPF, MX, DKIM, DMARC and the redirect once; a repeated setup finds them existing', async () => {
    const dns = createSimDnsRecords();
    const records = await dnsRecordsFor('getacme.com');
    const first = await dns.setup(deps(), { orgId, domain: 'GetAcme.com', records, redirectTo: 'https://acme.com' });
    expect(first).toEqual({ ok: true, created: 4, existing: 0, simulated: true });
    const again = await dns.setup(deps(), { orgId, domain: 'getacme.com', records, redirectTo: 'https://acme.com' });
    expect(again).toEqual({ ok: true, created: 0, existing: 4, simulated: true });
    const rows = await rowsOf(orgId, 'getacme.com');
    expect(rows).toHaveLength(5);
    expect(rows.find((r) => r.type === REDIRECT_TYPE)).toMatchObject({ name: 'getacme.com', content: 'https://acme.com' });
    expect(rows.find((r) => r.type === 'MX')?.content).toMatch(/^\d+ \S+$/);
    expect(rows.filter((r) => r.type === 'TXT').map((r) => r.name).sort()).toEqual(['_dmarc.getacme.com', 'getacme.com', 'google._domainkey.getacme.com']);
  });

  it('counts only what is missing; another organization has its own records; no redirect without a target', async () => {
    const dns = createSimDnsRecords();
    const r1 = await dns.setup(deps(), { orgId, domain: 'tryacme.com', records: [{ type: 'TXT', name: '@', content: 'v=spf1 ~all' }], redirectTo: null });
    expect(r1).toMatchObject({ ok: true, created: 1, existing: 0 });
    const r2 = await dns.setup(deps(), {
      orgId,
      domain: 'tryacme.com',
      records: [
        { type: 'TXT', name: 'tryacme.com', content: 'v=spf1 changed ~all' },
        { type: 'TXT', name: '_dmarc', content: 'v=DMARC1; p=none' },
      ],
      redirectTo: null,
    });
    expect(r2).toMatchObject({ ok: true, created: 1, existing: 1 });
    // The record that was there is left as it was.
    expect((await rowsOf(orgId, 'tryacme.com')).find((r) => r.name === 'tryacme.com')?.content).toBe('v=spf1 ~all');
    expect((await rowsOf(orgId, 'tryacme.com')).some((r) => r.type === REDIRECT_TYPE)).toBe(false);
    expect(await dns.setup(deps(), { orgId: otherOrgId, domain: 'tryacme.com', records: [{ type: 'TXT', name: '@', content: 'x' }], redirectTo: null })).toMatchObject({ created: 1 });
  });

  it('completes relative names with the domain', () => {
    expect(fullName('@', 'a.com')).toBe('a.com');
    expect(fullName('_dmarc', 'a.com')).toBe('_dmarc.a.com');
    expect(fullName('_DMARC.a.com.', 'a.com')).toBe('_dmarc.a.com');
  });
});
