// Node-only adapter: the embedded Postgres (PGlite) used when DATABASE_URL is absent.
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import * as schema from '../../schema';
import type { Database, Db } from './types';

import { MIGRATIONS_DIR } from './migrations_dir';

export { MIGRATIONS_DIR };

export async function openPglite(opts: { dataDir?: string; loadDataDir?: Blob; migrateOnOpen?: boolean }): Promise<Database & { pg: PGlite }> {
  const pg = new PGlite({ dataDir: opts.dataDir, loadDataDir: opts.loadDataDir });
  await pg.waitReady;
  const stats = { queries: 0 };
  const countedQuery = pg.query.bind(pg);
  const countedExec = pg.exec.bind(pg);
  pg.query = ((...args: Parameters<PGlite['query']>) => {
    stats.queries++;
    return countedQuery(...args);
  }) as PGlite['query'];
  pg.exec = ((...args: Parameters<PGlite['exec']>) => {
    stats.queries++;
    return countedExec(...args);
  }) as PGlite['exec'];
  // Statements inside a transaction run on the transaction's own handle: count those too (bench:runs reports
  // round trips per lead from this counter).
  const transaction = pg.transaction.bind(pg);
  pg.transaction = (<T>(fn: Parameters<PGlite['transaction']>[0]) =>
    transaction((tx) => {
      const txQuery = tx.query.bind(tx);
      const txExec = tx.exec.bind(tx);
      tx.query = ((...args: Parameters<typeof tx.query>) => {
        stats.queries++;
        return txQuery(...args);
      }) as typeof tx.query;
      tx.exec = ((...args: Parameters<typeof tx.exec>) => {
        stats.queries++;
        return txExec(...args);
      }) as typeof tx.exec;
      return fn(tx) as Promise<T>;
    })) as PGlite['transaction'];
  const db = drizzle({ client: pg, schema }) as unknown as Db;
  if (opts.migrateOnOpen !== false) await migrate(db as never, { migrationsFolder: MIGRATIONS_DIR });
  return { db, pg, stats, close: () => pg.close() };
}
