// The DNS-records port: the records a sending domain needs (SPF, DKIM, DMARC) and its redirect, written at the DNS
// host. Production: Cloudflare's API v4 (zones, DNS records, a redirect rule); embedded: a deterministic simulation
// that records them in sim_dns_records. Not the DoH reader in ../dns (that one reads leads' MX/SPF).
import type { PortDeps } from '../registrar/port';

export type DnsRecord = { type: 'TXT' | 'CNAME' | 'MX'; name: string; content: string; priority?: number };

export type SetupInput = {
  orgId: string;
  domain: string;
  records: DnsRecord[];
  /** Where the domain's web address redirects (https URL), or null. */
  redirectTo: string | null;
};

export type SetupResult =
  | { ok: true; /** records created now (those already there are left as they are) */ created: number; existing: number; simulated?: true }
  | { ok: false; reason: 'rate_limited' | 'error'; detail: string; retry_after_sec?: number; simulated?: true };

export interface DnsRecords {
  readonly kind: 'sim' | 'cloudflare';
  /** Idempotent: a record with the same type and name that exists is not written again. */
  setup(deps: PortDeps, input: SetupInput): Promise<SetupResult>;
}
