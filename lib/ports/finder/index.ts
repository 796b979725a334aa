import type { Config } from '../../config';
import { createHunterFinder } from './hunter';
import type { EmailFinder } from './port';
import { createSimFinder } from './sim';

/** The configured finder chain: EMAIL_FINDER=sim (default) or hunter (needs HUNTER_API_KEY). */
export function createEmailFinder(config: Config): EmailFinder {
  if (config.EMAIL_FINDER === 'hunter') {
    // Refused at start, not at the first round: a missing key would otherwise fail every lead as a provider error.
    if (!config.HUNTER_API_KEY) throw new Error('invalid configuration: EMAIL_FINDER=hunter needs HUNTER_API_KEY');
    return createHunterFinder({ apiKey: config.HUNTER_API_KEY, baseUrl: config.HUNTER_API_URL });
  }
  return createSimFinder(config.SIM_SEED);
}
