// One service per test file on the tier chosen by the vitest project (embedded: PGlite + in-process limits;
// integration: Neon driver over the relay to real PostgreSQL + Upstash clients over the bridge to real Redis),
// and a fresh organization per test, so no test depends on another's rows.
import { appendFileSync, readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { WebSocket } from 'ws';
import { loadConfig, type Config } from '../../lib/config';
import { openNeon } from '../../lib/db/neon';
import { openPglite } from '../../lib/db/pglite';
import type { Database } from '../../lib/db/types';
import { createMemoryLimits } from '../../lib/limits/memory';
import type { Clock, Limits } from '../../lib/limits/port';
import { createUpstashLimits } from '../../lib/limits/upstash';
import { createNodeServices, type NodeServices } from '../../lib/runtime/node';
import { createNodeApp } from '../../scripts/node_server';
import { createLogger } from '../../lib/log';
import { dropDatabase, migrateThroughNeon, recreateDatabase } from './it_database';
import { logFile } from './secret_scan';

export const TIER = (process.env.TIER ?? 'embedded') as 'embedded' | 'integration';
import { ADMIN_TOKEN, TEST_ENCRYPTION_KEY } from './harness_constants';
export { ADMIN_TOKEN };

export class TestClock implements Clock {
  private offset = 0;
  now() {
    return new Date(Date.now() + this.offset);
  }
  advance(ms: number) {
    this.offset += ms;
  }
}

async function openTierDatabase(own: string | null): Promise<Database> {
  if (TIER === 'integration') {
    const relay = inject('wsRelayPort');
    let url = inject('itDatabaseUrl');
    if (own) {
      url = await recreateDatabase(url, own, relay);
      await migrateThroughNeon(url, relay);
    }
    return openNeon(url, { webSocketConstructor: WebSocket, wsProxy: `127.0.0.1:${relay}/v1`, insecure: true });
  }
  const dump = readFileSync(inject('pgliteDump'));
  return openPglite({ loadDataDir: new Blob([dump]), migrateOnOpen: false });
}

function tierLimits(clock: Clock): Limits {
  if (TIER === 'integration' && inject('upstashUrl')) {
    // A prefix per test file keeps counters of parallel files and earlier runs apart.
    return createUpstashLimits({ url: inject('upstashUrl'), token: inject('upstashToken'), prefix: `t${process.pid}${Date.now().toString(36)}` });
  }
  return createMemoryLimits(clock);
}

export type TestEnv = {
  services: NodeServices;
  app: ReturnType<typeof createNodeApp>;
  clock: TestClock;
  config: Config;
  close(): Promise<void>;
};

/**
 * `ownDatabase`: in the integration tier, a database of this file's own (created, migrated, dropped at close) instead
 * of the run's shared one. For tests that run every due job and tick of the database (the simulated clock's advance):
 * on the shared database they would also run other files' queued work, with this file's clock and ports.
 */
export async function startTestEnv(env: Record<string, string> = {}, opts: { ownDatabase?: boolean } = {}): Promise<TestEnv> {
  const config = loadConfig({ ADMIN_TOKEN, TRUST_PROXY: 'true', LOG_LEVEL: 'silent', ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, ALLOW_PRIVATE_WEBHOOK_URLS: 'true', ...env });
  const clock = new TestClock();
  const own = opts.ownDatabase && TIER === 'integration' ? `ris_own_${process.pid}_${Date.now().toString(36)}` : null;
  const database = await openTierDatabase(own);
  const services = await createNodeServices(config, { database, clock, limits: tierLimits(clock) });
  captureServiceLogs(services);
  const app = createNodeApp(services);
  const close = async () => {
    await services.close();
    if (own) await dropDatabase(inject('itDatabaseUrl'), own, inject('wsRelayPort'));
  };
  return { services, app, clock, config, close };
}

/** Everything the service logs, at debug level, goes to the run's capture that the teardown scans for secrets. */
export function captureServiceLogs(services: NodeServices) {
  const capture = logFile(inject('logDir'));
  services.log = createLogger('debug', (line) => appendFileSync(capture, line + '\n'));
}

/**
 * Starts a count-based limit test at the beginning of a one-minute window, so its requests never straddle two: the
 * in-process limiter counts fixed windows on the test clock (stepped there); Upstash's sliding window runs on the
 * wall clock and discounts the previous minute, rounding down (so it waits when the minute is nearly over).
 */
export async function freshLimitWindow(env: TestEnv) {
  if (TIER === 'embedded') return env.clock.advance(60_000 - (env.clock.now().getTime() % 60_000) + 10);
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 20_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
}
