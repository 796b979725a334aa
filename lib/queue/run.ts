import type { JobContext, JobHandlers, JobPayload } from './port';

/** Runs one job through the registry; an unknown kind is an error (retried: a newer process may know it). */
export async function runHandler(handlers: JobHandlers, kind: string, payload: JobPayload, ctx: JobContext) {
  const handler = Object.hasOwn(handlers, kind) ? handlers[kind] : undefined;
  if (!handler) throw new Error(`no handler for job kind "${kind}"`);
  await handler(payload, ctx);
}


/** Runs `fn` over `items` with at most `limit` in flight; resolves when all have settled. */
export async function forEachLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
