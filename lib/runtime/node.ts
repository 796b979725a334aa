// Node runtime: `npm run dev`, tests and benchmarks. Chooses adapters from configuration only:
// DATABASE_URL → Neon driver (WebSocket), else PGlite in DATA_DIR; UPSTASH_* → Upstash, else in-process limits.
import { createStudioPorts } from '../ports/studio';
import { assertClockAllowed, loadSimClock } from '../clock/sim';
import { WebSocket } from 'ws';
import { KeyCache } from '../auth/keys';
import type { Config } from '../config';
import { openNeon } from '../db/neon';
import type { Database } from '../db/types';
import { createMemoryLimits } from '../limits/memory';
import { systemClock, type Clock, type Limits } from '../limits/port';
import { createUpstashLimits } from '../limits/upstash';
import { createLogger } from '../log';
import type { Services } from '../services';
import { createSecretBox } from '../crypto/secret_box';
import { devEncryptionKey } from '../crypto/dev_key';
import { nodeResolver } from '../net/node_resolver';
import { createEmbeddedQueue } from '../queue/embedded';
import type { Queue } from '../queue/port';
import { createQStashQueue, qstashConfigured } from '../queue/qstash';
import type { Db } from '../db/types';
import { createClassify } from './classify';
import { createAiEngine } from '../ai';
import type { AiEngine } from '../ai/types';

export type NodeServices = Services & { database: Database; close(): Promise<void> };

export async function openDatabase(config: Config): Promise<Database> {
  if (config.DATABASE_URL) {
    return openNeon(config.DATABASE_URL, { webSocketConstructor: WebSocket, wsProxy: config.NEON_WS_PROXY, insecure: config.NEON_INSECURE_WS });
  }
  const { openPglite } = await import('../db/pglite');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(config.DATA_DIR, { recursive: true });
  return openPglite({ dataDir: config.DATA_DIR });
}

export function createLimits(config: Config, clock: Clock): Limits {
  if (config.UPSTASH_REDIS_REST_URL && config.UPSTASH_REDIS_REST_TOKEN) {
    return createUpstashLimits({ url: config.UPSTASH_REDIS_REST_URL, token: config.UPSTASH_REDIS_REST_TOKEN });
  }
  return createMemoryLimits(clock);
}

/** QSTASH_TOKEN → QStash publishing to our own /jobs/run; else the embedded scheduler (jobs rows in the database). */
export function createQueue(config: Config, db: Db, clock: Clock): Queue {
  return qstashConfigured(config) ? createQStashQueue(config, clock) : createEmbeddedQueue(db, clock);
}

export async function createNodeServices(config: Config, opts: { database?: Database; clock?: Clock; keyCacheTtlMs?: number; limits?: Limits; ai?: AiEngine } = {}): Promise<NodeServices> {
  // A malformed key stops the process at start with the variable's name, not at the first secret it reads.
  const secrets = createSecretBox(config.ENCRYPTION_KEY ?? devEncryptionKey(config.DATA_DIR), config.ENCRYPTION_KEY_PREVIOUS);
  await secrets.ready();
  const database = opts.database ?? (await openDatabase(config));
  assertClockAllowed(config, 'node');
  // CLOCK=sim: the stored simulated time (lib/clock/sim.ts), read once here; the database is migrated by now.
  const clock = opts.clock ?? (config.CLOCK === 'sim' ? await loadSimClock(database.db) : systemClock);
  return {
    config,
    database,
    db: database.db,
    dbStats: database.stats,
    limits: opts.limits ?? createLimits(config, clock),
    clock,
    keyCache: new KeyCache(opts.keyCacheTtlMs),
    log: createLogger(config.LOG_LEVEL),
    classify: createClassify(config),
    secrets,
    resolveHost: nodeResolver,
    queue: createQueue(config, database.db, clock),
    ai: opts.ai ?? createAiEngine(config),
    studio: createStudioPorts(config),
    close: () => database.close(),
  };
}
