// The embedded database's statement counter (services.dbStats) counts statements inside transactions too:
// bench:runs and the one-query tests read it, and a transaction's statements run on the transaction's own handle.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPglite } from '../../lib/db/pglite';

let database: Awaited<ReturnType<typeof openPglite>>;
beforeAll(async () => {
  database = await openPglite({ migrateOnOpen: false });
});
afterAll(() => database.close());

it('counts statements outside and inside a transaction', async () => {
  const before = database.stats.queries;
  await database.db.execute(sql`select 1`);
  expect(database.stats.queries - before).toBe(1);
  const inTx = database.stats.queries;
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`select 1`);
    await tx.execute(sql`select 2`);
  });
  expect(database.stats.queries - inTx).toBeGreaterThanOrEqual(2);
});
