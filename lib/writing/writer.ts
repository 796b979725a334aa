import { ApiError } from '../errors';
import type { Services } from '../services';
import { createHostedWriter } from './hosted';
import { offlineWriter } from './offline';
import type { BatchWriter } from './port';

/**
 * The writer a round uses, from configuration only, as lib/ai chooses the reply engine: AI_PROVIDER openai or
 * anthropic (with AI_MODEL and AI_API_KEY) → the hosted writer; unset or `offline` → the offline engine.
 */
export function writerOf(services: Pick<Services, 'config'>): BatchWriter {
  const c = services.config;
  const provider = (c.AI_PROVIDER ?? '').trim().toLowerCase();
  if (!provider || provider === 'offline') return offlineWriter;
  const model = (c.AI_MODEL ?? '').trim();
  const apiKey = (c.AI_API_KEY ?? '').trim();
  if ((provider !== 'openai' && provider !== 'anthropic') || !model || !apiKey) throw new ApiError('ai_error', `the writing model is not configured (AI_PROVIDER ${provider} needs AI_MODEL and AI_API_KEY)`);
  return createHostedWriter({ provider, model, apiKey, baseUrl: (c.AI_BASE_URL ?? '').trim() || undefined });
}
