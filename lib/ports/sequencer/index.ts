import type { Config } from '../../config';
import { createInstantlySequencer } from './instantly';
import type { Sequencer } from './port';
import { createSimSequencer } from './sim';

/** The sequencer SEQUENCER names: `sim` (default; rows in sim_sequencer_*) or `instantly` (needs INSTANTLY_API_KEY). */
export function createSequencer(config: Pick<Config, 'SEQUENCER' | 'INSTANTLY_API_KEY' | 'INSTANTLY_API_URL'>): Sequencer {
  if (config.SEQUENCER === 'instantly') {
    // Refused at start, not at the first push: a missing key would otherwise fail every campaign's push.
    if (!config.INSTANTLY_API_KEY) throw new Error('invalid configuration: SEQUENCER=instantly needs INSTANTLY_API_KEY');
    return createInstantlySequencer({ apiKey: config.INSTANTLY_API_KEY, baseUrl: config.INSTANTLY_API_URL });
  }
  return createSimSequencer();
}
