/**
 * Proves the production Postgres client (Neon serverless Pool + drizzle's neon-serverless adapter) works against
 * the local Postgres through the relay, including interactive transactions and row locks, and that the relay
 * refuses addresses off its allow-list. Skips without TEST_DATABASE_URL.
 */
import { neonConfig, Pool } from '@neondatabase/serverless';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/neon-serverless';
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { applyNeonRelayConfig, startWsRelay, type WsRelay } from './ws_relay.js';

const DB_URL = process.env.TEST_DATABASE_URL;

describe.skipIf(!DB_URL)('ws_relay: Neon driver → local Postgres', () => {
  const table = `infra_relay_${process.pid}_${Date.now().toString(36)}`;
  const counters = pgTable(table, { id: text('id').primaryKey(), n: integer('n').notNull() });
  let relay: WsRelay;
  let pool: Pool;
  let db: ReturnType<typeof drizzle>;

  beforeAll(async () => {
    const target = new URL(DB_URL!);
    relay = await startWsRelay({ allow: [`${target.hostname}:${target.port || 5432}`] });
    applyNeonRelayConfig(neonConfig, relay.port);
    pool = new Pool({ connectionString: DB_URL });
    db = drizzle({ client: pool });
    await db.execute(sql.raw(`CREATE TABLE "${table}" (id text PRIMARY KEY, n integer NOT NULL)`));
    await db.insert(counters).values({ id: 'a', n: 0 });
  });

  afterAll(async () => {
    await db?.execute(sql.raw(`DROP TABLE IF EXISTS "${table}"`));
    await pool?.end();
    await relay?.close();
  });

  const read = async () => (await db.select().from(counters).where(eq(counters.id, 'a')))[0].n;

  it('runs a query', async () => {
    const { rows } = await pool.query('SELECT 1 + 1 AS two, current_database() AS db');
    expect(rows[0]).toEqual({ two: 2, db: new URL(DB_URL!).pathname.slice(1) });
  });

  it('commits a transaction that locks a row with SELECT … FOR UPDATE', async () => {
    await db.transaction(async (tx) => {
      const [row] = await tx.select().from(counters).where(eq(counters.id, 'a')).for('update');
      await tx.update(counters).set({ n: row.n + 1 }).where(eq(counters.id, 'a'));
    });
    expect(await read()).toBe(1);
  });

  it('rolls back a transaction that throws', async () => {
    const before = await read();
    await expect(
      db.transaction(async (tx) => {
        await tx.select().from(counters).where(eq(counters.id, 'a')).for('update');
        await tx.update(counters).set({ n: 999 }).where(eq(counters.id, 'a'));
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await read()).toBe(before);
  });

  it('holds the row lock across relay connections (a second locker gets NOWAIT error 55P03)', async () => {
    await db.transaction(async (tx) => {
      await tx.select().from(counters).where(eq(counters.id, 'a')).for('update');
      const other = await pool.connect(); // a second WebSocket through the relay
      try {
        await expect(other.query(`SELECT n FROM "${table}" WHERE id = 'a' FOR UPDATE NOWAIT`)).rejects.toMatchObject({
          code: '55P03',
        });
      } finally {
        other.release();
      }
    });
  });

  it('refuses an address that is not allow-listed', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`${relay.url}?address=127.0.0.1:6379`);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => reject(new Error('relay accepted a non-allow-listed address')));
      ws.on('error', () => {}); // the 403 also surfaces as an error after unexpected-response
    });
    expect(status).toBe(403);

    const stray = new Pool({ connectionString: 'postgres://postgres@127.0.0.1:6379/test', connectionTimeoutMillis: 5000 });
    stray.on('error', () => {});
    // The driver rejects with the WebSocket's ErrorEvent (not an Error), carrying the relay's 403.
    await expect(stray.query('SELECT 1')).rejects.toMatchObject({ message: expect.stringContaining('403') });
    await stray.end();
  });
});
