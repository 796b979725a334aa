import { classifyReply } from '../classify';
import type { Config } from '../config';
import type { Classify } from '../ingest/ingest_reply';

/** With AI_PROVIDER=openai (any OpenAI-compatible API) a hosted model classifies; the offline engine backs it up. */
export function createClassify(config: Config): Classify {
  const hosted =
    config.AI_PROVIDER === 'openai' && config.AI_API_KEY && config.AI_MODEL
      ? { baseUrl: config.AI_BASE_URL ?? 'https://api.openai.com/v1', apiKey: config.AI_API_KEY, model: config.AI_MODEL }
      : null;
  return async (text, subject) => {
    const r = await classifyReply(text, { subject: subject ?? undefined, hosted });
    return { classification: r.classification, confidence: r.confidence };
  };
}
