// The simulated DNS host (agency-operator.md §6): every record a domain's setup would write is a `sim_dns_records` row
// (GET /admin/v1/orgs/{org_id}/sim/dns_records), one per organization, domain, type and name, so a repeated setup
// finds its records `existing` and writes nothing twice. The web redirect is recorded as a row of type `REDIRECT`
// (name = the domain, content = the target URL): a real host keeps it as a rule, not a record, but one table shows all.
import { simDnsRecords } from '../../../schema';
import type { PortDeps } from '../registrar/port';
import type { DnsRecords, SetupInput, SetupResult } from './port';

export const REDIRECT_TYPE = 'REDIRECT';

/** The record's name as DNS hosts list it: the full name ("@" and relative names completed with the domain). */
export function fullName(name: string, domain: string): string {
  const n = name.trim().toLowerCase().replace(/\.$/, '');
  if (n === '' || n === '@') return domain;
  return n === domain || n.endsWith(`.${domain}`) ? n : `${n}.${domain}`;
}

export function createSimDnsRecords(): DnsRecords {
  return {
    kind: 'sim',
    async setup(deps: PortDeps, input: SetupInput): Promise<SetupResult> {
      const domain = input.domain.trim().toLowerCase().replace(/\.$/, '');
      const rows: (typeof simDnsRecords.$inferInsert)[] = input.records.map((r) => ({
        orgId: input.orgId,
        domain,
        type: r.type,
        name: fullName(r.name, domain),
        // MX priority travels in the content, as zone files write it ("10 mx.example.com").
        content: r.type === 'MX' && r.priority !== undefined ? `${r.priority} ${r.content}` : r.content,
      }));
      if (input.redirectTo) rows.push({ orgId: input.orgId, domain, type: REDIRECT_TYPE, name: domain, content: input.redirectTo });
      const written = rows.length
        ? await deps.db.insert(simDnsRecords).values(rows).onConflictDoNothing().returning({ type: simDnsRecords.type })
        : [];
      // The counts are of DNS records, as Cloudflare's adapter counts them: the redirect rule is not one.
      const wanted = new Set(rows.filter((r) => r.type !== REDIRECT_TYPE).map((r) => `${r.type}|${r.name}`)).size;
      const created = written.filter((r) => r.type !== REDIRECT_TYPE).length;
      return { ok: true, created, existing: wanted - created, simulated: true };
    },
  };
}
