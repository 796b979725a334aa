// Cloudflare Workers runtime: production adapters only (Neon over WebSocket, Upstash). An isolate's memory
// limits nothing on Workers, so missing Upstash configuration is a configuration error here, not a fallback.
import { createStudioPorts } from '../ports/studio';
import { assertClockAllowed } from '../clock/sim';
import type { Context } from 'hono';
import { KeyCache } from '../auth/keys';
import { loadConfig, type Config } from '../config';
import { openNeon } from '../db/neon';
import type { AppEnv, Group } from '../http/env';
import { createPlatform } from '../http/platform';
import { systemClock } from '../limits/port';
import { createUpstashLimits } from '../limits/upstash';
import { createLogger } from '../log';
import type { Services } from '../services';
import { createSecretBox, type SecretBox } from '../crypto/secret_box';
import type { Queue } from '../queue/port';
import { createQStashQueue, createUnconfiguredQueue, qstashConfigured } from '../queue/qstash';
import { createClassify } from './classify';
import { createAiEngine } from '../ai';
import type { AiEngine } from '../ai/types';

export const MIN_ADMIN_TOKEN_LENGTH = 32;

// Per isolate: parsed configuration, the key cache (≤ 30 s) and the limiter instances.
const keyCache = new KeyCache();
let cached: { env: unknown; config: Config; limits: ReturnType<typeof createUpstashLimits>; secrets: SecretBox; queue: Queue; ai: AiEngine } | undefined;

function isolateState(env: Record<string, unknown>) {
  if (cached?.env === env) return cached;
  const config = loadConfig(env);
  if (!config.DATABASE_URL) throw new Error('DATABASE_URL is required on Workers');
  assertClockAllowed(config, 'worker');
  if (!config.UPSTASH_REDIS_REST_URL || !config.UPSTASH_REDIS_REST_TOKEN) throw new Error('UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN are required on Workers');
  if (!config.ENCRYPTION_KEY) throw new Error('ENCRYPTION_KEY is required on Workers');
  // The admin token opens every organization: a short one is a guessable one (the per-IP limit only slows guessing).
  if (config.ADMIN_TOKEN !== undefined && config.ADMIN_TOKEN.length < MIN_ADMIN_TOKEN_LENGTH) {
    throw new Error(`ADMIN_TOKEN must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters on Workers (e.g. openssl rand -base64 32)`);
  }
  // No jobs-table runner lives on Workers: webhook deliveries, retries and due steps need QStash there. Without it
  // only the jobs Worker's cron sweep moves webhooks (once a minute): said loudly, once per isolate.
  if (!qstashConfigured(config)) createLogger(config.LOG_LEVEL).warn('QStash is not configured: webhooks fall back to the once-a-minute sweep');
  cached = {
    env,
    config,
    limits: createUpstashLimits({ url: config.UPSTASH_REDIS_REST_URL, token: config.UPSTASH_REDIS_REST_TOKEN }),
    secrets: createSecretBox(config.ENCRYPTION_KEY, config.ENCRYPTION_KEY_PREVIOUS),
    queue: qstashConfigured(config) ? createQStashQueue(config, systemClock) : createUnconfiguredQueue(),
    ai: createAiEngine(config),
  };
  return cached;
}

/** Services for one Worker invocation; the Neon Pool is closed when the invocation ends. */
export function workerServices(env: Record<string, unknown>): { services: Services; dispose: () => Promise<void> } {
  const { config, limits, secrets, queue, ai } = isolateState(env);
  const database = openNeon(config.DATABASE_URL!, { wsProxy: config.NEON_WS_PROXY, insecure: config.NEON_INSECURE_WS, max: 1 });
  const services: Services = {
    config,
    db: database.db,
    dbStats: database.stats,
    limits,
    clock: systemClock,
    keyCache,
    log: createLogger(config.LOG_LEVEL),
    classify: createClassify(config),
    secrets,
    queue,
    ai,
    studio: createStudioPorts(config),
  };
  return { services, dispose: () => database.close() };
}

export function workerApp(groups: Group[]) {
  return createPlatform({
    groups,
    services: async (c: Context<AppEnv>) => workerServices(c.env),
    socketIp: (c) => c.req.header('cf-connecting-ip'),
  });
}
