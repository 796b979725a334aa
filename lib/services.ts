import type { KeyCache } from './auth/keys';
import type { Config } from './config';
import type { Db } from './db/types';
import type { Clock, Limits } from './limits/port';
import type { Classify } from './ingest/ingest_reply';
import type { Logger } from './log';

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
}
