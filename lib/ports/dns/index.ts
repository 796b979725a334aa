import type { Config } from '../../config';
import { createDohDns } from './doh';
import type { DnsPort } from './port';
import { createSimDns } from './sim';

/** The DNS port by configuration: `sim` (default; no network) or `doh` (DNS-over-HTTPS at DOH_URL). */
export function createDnsPort(config: Pick<Config, 'DNS' | 'DOH_URL' | 'SIM_SEED'>): DnsPort {
  return config.DNS === 'doh' ? createDohDns({ url: config.DOH_URL }) : createSimDns({ seed: config.SIM_SEED });
}
