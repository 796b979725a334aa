// The webhook tests' environment. Embedded tier: the usual per-file PGlite. Integration tier: a database of its
// own on the real PostgreSQL (through the Neon driver and the relay), because the dispatcher, the job runner and
// the sweep work on every organization's rows, exactly as in production, and must not pick up other files' rows.
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, inject, vi } from 'vitest';
import { WebSocket } from 'ws';
import { loadConfig } from '../../lib/config';
import { openNeon } from '../../lib/db/neon';
import { createMemoryLimits } from '../../lib/limits/memory';
import { createUpstashLimits } from '../../lib/limits/upstash';
import { drainJobs } from '../../lib/queue/runner';
import { createNodeServices } from '../../lib/runtime/node';
import { createNodeApp } from '../../scripts/node_server';
import { jobSchedule, jobHandlers } from '../../functions/jobs/handlers';
import { ADMIN_TOKEN, captureServiceLogs, startTestEnv, TestClock, TIER, type TestEnv } from './harness';
import { migrateThroughNeon, recreateDatabase } from './it_database';
import { createServer, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { startQStashEmulator, type QStashEmulator } from '../infra/qstash_emulator';
import { startReceiver, type Receiver } from './receiver';

export async function startWebhookEnv(vars: Record<string, string> = {}): Promise<TestEnv> {
  if (TIER !== 'integration') return startTestEnv(vars);
  const baseUrl = inject('itDatabaseUrl');
  const relay = inject('wsRelayPort');
  const name = `ris_wh_${process.pid}_${Date.now().toString(36)}`;
  const url = await recreateDatabase(baseUrl, name, relay);
  await migrateThroughNeon(url, relay);
  const config = loadConfig({ ADMIN_TOKEN, TRUST_PROXY: 'true', LOG_LEVEL: 'silent', ENCRYPTION_KEY: 'a'.repeat(64), ALLOW_PRIVATE_WEBHOOK_URLS: 'true', ...vars });
  const clock = new TestClock();
  const database = openNeon(url, { webSocketConstructor: WebSocket, wsProxy: `127.0.0.1:${relay}/v1`, insecure: true });
  const limits = inject('upstashUrl')
    ? createUpstashLimits({ url: inject('upstashUrl'), token: inject('upstashToken'), prefix: `wh${process.pid}${Date.now().toString(36)}` })
    : createMemoryLimits(clock);
  const services = await createNodeServices(config, { database, clock, limits });
  captureServiceLogs(services);
  return {
    services,
    app: createNodeApp(services),
    clock,
    config,
    close: async () => {
      await services.close();
      await dropDatabase(name);
    },
  };
}

/**
 * A test file's environment, started before its tests and closed after them, and the receivers its tests start,
 * each closed after its test. `env` reads through to the started environment, so it is usable in hooks and tests
 * only. integrationOnly: starts nothing on the embedded tier (the file's tests are skipped there). start: how the
 * environment is started; startTestEnv for a file whose rows may share the tier's database.
 */
export function webhookSuite({ integrationOnly = false, start = startWebhookEnv }: { integrationOnly?: boolean; start?: () => Promise<TestEnv> } = {}) {
  let current: TestEnv | undefined;
  const receivers: Receiver[] = [];
  beforeAll(async () => {
    if (integrationOnly && TIER !== 'integration') return;
    current = await start();
  });
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });
  afterAll(async () => {
    await current?.close();
  });
  const started = () => {
    if (!current) throw new Error('the test environment is not started: read env inside hooks and tests');
    return current;
  };
  const env: TestEnv = {
    get services() {
      return started().services;
    },
    get app() {
      return started().app;
    },
    get clock() {
      return started().clock;
    },
    get config() {
      return started().config;
    },
    close: () => started().close(),
  };
  return {
    env,
    receiver: async (answer?: Receiver['answer']) => {
      const r = await startReceiver(answer);
      receivers.push(r);
      return r;
    },
  };
}

/**
 * Drops a test database once its connections are gone. Not WITH (FORCE): a pool's connection that is still closing
 * would receive FATAL 57P01 and raise it as an unhandled error in whatever test file runs next in this worker.
 */
export async function dropDatabase(name: string) {
  const relay = inject('wsRelayPort');
  const admin = openNeon(inject('itDatabaseUrl'), { webSocketConstructor: WebSocket, wsProxy: `127.0.0.1:${relay}/v1`, insecure: true });
  try {
    for (let i = 0; i < 50; i++) {
      const dropped = await admin.db.execute(sql.raw(`drop database if exists ${name}`)).then(
        () => true,
        (err: { code?: string }) => {
          if (err?.code !== '55006') throw err; // 55006: still being accessed
          return false;
        },
      );
      if (dropped) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`database ${name} is still in use`);
  } finally {
    await admin.close();
  }
}

/** Runs the embedded scheduler's work now: dispatch, due deliveries and retries, until nothing is due. */
export const drain = (env: TestEnv) => drainJobs(env.services, jobHandlers, { everyTick: jobSchedule.everyTick });

/**
 * The service on the production queue path: served over real HTTP (QStash calls back into POST /jobs/run), with
 * the real QStash Client and Receiver configured against the local emulator. `close` stops all of it.
 */
export async function startQStashServiceEnv(vars: Record<string, string> = {}) {
  const emu: QStashEmulator = await startQStashEmulator({ retryDelayMs: 100 });
  const server: Server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const env = await startWebhookEnv({
    QSTASH_URL: emu.url,
    QSTASH_TOKEN: emu.token,
    QSTASH_CURRENT_SIGNING_KEY: emu.currentSigningKey,
    QSTASH_NEXT_SIGNING_KEY: emu.nextSigningKey,
    PUBLIC_BASE_URL: base,
    ...vars,
  });
  server.on('request', getRequestListener(env.app.fetch));
  const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined); // the SDK logs each failed publish
  return {
    env,
    emu,
    base,
    close: async () => {
      quiet.mockRestore();
      await emu.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await env.close();
    },
  };
}
