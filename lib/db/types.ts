import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import type * as schema from '../../schema';

// Both adapters (Neon serverless, PGlite) are drizzle Postgres databases over the same schema.
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  /** Counts statements sent to the server: the read-path benchmark reports round trips per request. */
  readonly stats: { queries: number };
  close(): Promise<void>;
}

/** Rows of a raw SQL statement, whatever the driver's result wrapper. */
export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** Drivers differ in how they return timestamps from raw SQL; the API always speaks ISO 8601. */
export function iso(value: Date | string | null | undefined): string | null {
  if (value == null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** True when a statement failed on this unique constraint or index (SQLSTATE 23505), under either driver. */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e; depth++) {
    const pg = e as { code?: unknown; constraint?: unknown; message?: unknown; cause?: unknown };
    if (pg.code === '23505') return pg.constraint === constraint || String(pg.message ?? '').includes(constraint);
    e = pg.cause;
  }
  return false;
}
