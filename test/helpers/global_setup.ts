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

export const IT_DATABASE = 'ris_it';

export default async function setup(project: TestProject) {
  const cleanups: Array<() => Promise<void> | void> = [];
  if (project.name === 'integration') {
    await setupIntegration(project, cleanups);
    return async () => {
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
    const itUrl = await recreateDatabase(dbUrl, IT_DATABASE, relay.port);
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
  }
}
