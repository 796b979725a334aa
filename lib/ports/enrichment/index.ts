import type { Config } from '../../config';
import type { EnrichmentPort } from './port';
import { createPredictLeadsEnrichment } from './predictleads';
import { createSimEnrichment } from './sim';

/** The configured enrichment provider: ENRICHMENT=sim (default) or predictleads (needs its key and token). */
export function createEnrichmentPort(config: Config): EnrichmentPort {
  if (config.ENRICHMENT === 'predictleads') {
    // Refused at start, not at the first lookup: a missing credential would otherwise fail every lead of every run.
    if (!config.PREDICTLEADS_API_KEY || !config.PREDICTLEADS_API_TOKEN) {
      throw new Error('invalid configuration: ENRICHMENT=predictleads needs PREDICTLEADS_API_KEY and PREDICTLEADS_API_TOKEN');
    }
    return createPredictLeadsEnrichment({ apiKey: config.PREDICTLEADS_API_KEY, apiToken: config.PREDICTLEADS_API_TOKEN, baseUrl: config.PREDICTLEADS_API_URL });
  }
  return createSimEnrichment(config.SIM_SEED);
}
