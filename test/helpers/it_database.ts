import { Pool } from '@neondatabase/serverless';
import { migrate } from 'drizzle-orm/neon-serverless/migrator';
import { MIGRATIONS_DIR } from '../../lib/db/migrations_dir';
import { openNeon } from '../../lib/db/neon';
import { WebSocket } from 'ws';

const neonOpts = (relayPort: number) => ({ webSocketConstructor: WebSocket, wsProxy: `127.0.0.1:${relayPort}/v1`, insecure: true });

/** A fresh database per run, so the integration tier never sees an earlier run's rows or schema. */
export async function recreateDatabase(adminUrl: string, name: string, relayPort: number): Promise<string> {
  const admin = openNeon(adminUrl, neonOpts(relayPort));
  const pool = (admin.db as unknown as { $client: Pool }).$client;
  await pool.query(`drop database if exists ${name} with (force)`);
  await pool.query(`create database ${name}`);
  await admin.close();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function migrateThroughNeon(url: string, relayPort: number) {
  const database = openNeon(url, neonOpts(relayPort));
  await migrate(database.db as never, { migrationsFolder: MIGRATIONS_DIR });
  await database.close();
}

export async function dropDatabase(adminUrl: string, name: string, relayPort: number) {
  const admin = openNeon(adminUrl, neonOpts(relayPort));
  const pool = (admin.db as unknown as { $client: Pool }).$client;
  await pool.query(`drop database if exists ${name} with (force)`);
  await admin.close();
}
