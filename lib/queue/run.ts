import type { JobContext, JobHandlers, JobPayload } from './port';

/** Runs one job through the registry; an unknown kind is an error (retried: a newer process may know it). */
export async function runHandler(handlers: JobHandlers, kind: string, payload: JobPayload, ctx: JobContext) {
  const handler = Object.hasOwn(handlers, kind) ? handlers[kind] : undefined;
  if (!handler) throw new Error(`no handler for job kind "${kind}"`);
  await handler(payload, ctx);
}

/**
 * One line for a log: the innermost cause's SQLSTATE/errno code and message. A failed statement's own message
 * (drizzle's "Failed query: …") carries the SQL and its parameters, which can hold prospects' addresses and reply
 * text, so it is never logged; the database's reason (e.g. "40P01 deadlock detected") is what an operator needs.
 */
export function errorText(err: unknown): string {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e instanceof Error && e.cause instanceof Error && e.cause !== e; depth++) e = e.cause;
  if (!(e instanceof Error)) return String(e);
  const code = (e as { code?: unknown }).code;
  const message = /^Failed query:/.test(e.message) ? 'query failed' : e.message;
  return typeof code === 'string' && code ? `${code} ${message}` : message;
}

/** Runs `fn` over `items` with at most `limit` in flight; resolves when all have settled. */
export async function forEachLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
