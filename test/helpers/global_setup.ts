// Prepares what every test file needs once per run:
// - embedded tier: a migrated PGlite data dir, dumped to a file each test file loads (~1 s instead of a migration);
// - integration tier (TEST_DATABASE_URL / TEST_REDIS_URL): a fresh database on the real PostgreSQL, migrated
//   through the Neon driver over the WebSocket relay, and the Upstash-REST bridge over the real Redis.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startUpstashBridge } from '../infra/upstash_bridge';
import { startWsRelay } from '../infra/ws_relay';
import { ADMIN_TOKEN, TEST_ENCRYPTION_KEY } from './harness_constants';
import { countSecrets, scanForSecrets } from './secret_scan';

// One database per run, so two integration runs on one machine (a developer and CI) never share rows.
const itDatabaseName = () => `ris_it_${process.pid}_${Date.now().toString(36)}`;

export default async function setup(project: TestProject) {
  const cleanups: Array<() => Promise<void> | void> = [];
  const logDir = mkdtempSync(join(tmpdir(), `ris-logs-${project.name}-`));
  project.provide('logDir', logDir);
  cleanups.push(() => rmSync(logDir, { recursive: true, force: true }));
  const scan = () => {
    const leaks = scanForSecrets(logDir, [ADMIN_TOKEN, TEST_ENCRYPTION_KEY]);
    const { secrets, logBytes } = countSecrets(logDir);
    if (leaks.length) {
      // A throw here is only printed by vitest; the exit code is what fails CI.
      console.error(`secrets found in the service logs of this run:\n${leaks.join("\n")}`);
      process.exitCode = 1;
      return;
    }
    console.log(`[${project.name}] secret scan: ${secrets} secrets created, ${logBytes} bytes of logs, no leak`);
  };
  if (project.name === 'integration') {
    await setupIntegration(project, cleanups);
    return async () => {
      scan();
      for (const c of cleanups.reverse()) await c();
    };
  }
  const { openPglite } = await import('../../lib/db/pglite');
  const dir = mkdtempSync(join(tmpdir(), 'ris-test-'));
  const pg = await openPglite({});
  const dump = await pg.pg.dumpDataDir('gzip');
  await pg.close();
  const dumpPath = join(dir, 'pglite.tar.gz');
  writeFileSync(dumpPath, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteDump', dumpPath);
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return async () => {
    scan();
    for (const c of cleanups.reverse()) await c();
  };
}

async function setupIntegration(project: TestProject, cleanups: Array<() => Promise<void> | void>) {
  const dbUrl = process.env.TEST_DATABASE_URL;
  if (dbUrl) {
    const target = new URL(dbUrl);
    const relay = await startWsRelay({ allow: [`${target.hostname}:${target.port || 5432}`] });
    cleanups.push(() => relay.close());
    const { recreateDatabase, migrateThroughNeon } = await import('./it_database');
    const { dropDatabase } = await import('./it_database');
    const name = itDatabaseName();
    const itUrl = await recreateDatabase(dbUrl, name, relay.port);
    cleanups.push(() => dropDatabase(dbUrl, name, relay.port));
    await migrateThroughNeon(itUrl, relay.port);
    project.provide('itDatabaseUrl', itUrl);
    project.provide('wsRelayPort', relay.port);
  }
  const redisUrl = process.env.TEST_REDIS_URL;
  if (redisUrl) {
    const bridge = await startUpstashBridge({ redisUrl, token: `it-${process.pid}` });
    cleanups.push(() => bridge.close());
    project.provide('upstashUrl', bridge.url);
    project.provide('upstashToken', bridge.token);
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteDump: string;
    itDatabaseUrl: string;
    wsRelayPort: number;
    upstashUrl: string;
    upstashToken: string;
    logDir: string;
  }
}
