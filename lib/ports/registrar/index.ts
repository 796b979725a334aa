import type { Config } from '../../config';
import { createPorkbunRegistrar } from './porkbun';
import type { Registrar } from './port';
import { createSimRegistrar } from './sim';

/** The registrar REGISTRAR names: `sim` (default; orders in sim_orders) or `porkbun` (needs both of its keys). */
export function createRegistrar(config: Config): Registrar {
  if (config.REGISTRAR === 'porkbun') {
    // Refused at start, not at the first buy step: a missing key would otherwise fail every purchase of every plan.
    if (!config.PORKBUN_API_KEY || !config.PORKBUN_SECRET_API_KEY) {
      throw new Error('invalid configuration: REGISTRAR=porkbun needs PORKBUN_API_KEY and PORKBUN_SECRET_API_KEY');
    }
    return createPorkbunRegistrar({ apiKey: config.PORKBUN_API_KEY, secretApiKey: config.PORKBUN_SECRET_API_KEY, baseUrl: config.PORKBUN_API_URL });
  }
  return createSimRegistrar(config.SIM_SEED);
}
