import type { Config } from '../../config';
import type { WarmupHealth } from './port';
import { createSimWarmupHealth } from './sim';

/** The warm-up/health provider WARMUP names: only the simulation so far (README "Sending infrastructure"). */
export function createWarmupHealth(config: Pick<Config, 'WARMUP' | 'SIM_SEED'>): WarmupHealth {
  return createSimWarmupHealth(config.SIM_SEED);
}
