import type { Config } from '../../config';
import { createCloudflareDnsRecords } from './cloudflare';
import type { DnsRecords } from './port';
import { createSimDnsRecords } from './sim';

/** The DNS host DNS_RECORDS names: `sim` (default; rows in sim_dns_records) or `cloudflare` (token and account id). */
export function createDnsRecords(config: Config): DnsRecords {
  if (config.DNS_RECORDS === 'cloudflare') {
    // Refused at start: without them every setup_dns step would fail, one plan at a time.
    if (!config.CLOUDFLARE_API_TOKEN || !config.CLOUDFLARE_ACCOUNT_ID) {
      throw new Error('invalid configuration: DNS_RECORDS=cloudflare needs CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID');
    }
    return createCloudflareDnsRecords({ apiToken: config.CLOUDFLARE_API_TOKEN, accountId: config.CLOUDFLARE_ACCOUNT_ID, baseUrl: config.CLOUDFLARE_API_URL });
  }
  return createSimDnsRecords();
}
