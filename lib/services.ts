import type { KeyCache } from './auth/keys';
import type { Config } from './config';
import type { SecretBox } from './crypto/secret_box';
import type { Resolver } from './net/ssrf';
import type { Db } from './db/types';
import type { Clock, Limits } from './limits/port';
import type { Classify } from './ingest/ingest_reply';
import type { Logger } from './log';
import type { Queue } from './queue/port';
import type { AiEngine } from './ai/types';
import type { StudioPorts } from './ports/studio';

/**
 * The ports one request works with. Built once per process under Node, once per request on Workers
 * (a Neon Pool must not outlive its request there). Adapters are chosen from configuration only.
 */
export interface Services {
  config: Config;
  db: Db;
  dbStats: { queries: number };
  limits: Limits;
  clock: Clock;
  keyCache: KeyCache;
  log: Logger;
  /** Reply classification: the offline engine, or a hosted model with the offline engine as fallback. */
  classify: Classify;
  /** Encryption of secrets at rest (ENCRYPTION_KEY). */
  secrets: SecretBox;
  /** DNS for the SSRF check of outbound URLs; absent on Workers (no DNS API there). */
  resolveHost?: Resolver;
  /** Work that runs later or elsewhere (webhook deliveries, retries, due steps): QStash, or jobs rows run here. */
  queue: Queue;
  /** Reply suggestions: the offline engine, or the hosted model AI_PROVIDER names (no silent fallback). */
  ai: AiEngine;
  /** The Studio's outside effects: DNS scan, email finders, table tool (each `sim` unless configured). */
  studio: StudioPorts;
  /** The budget of one model call, counted from the handler's start; absent = lib/ai/suggest AI_TIME_LIMIT_MS. */
  aiTimeLimitMs?: number;
}
