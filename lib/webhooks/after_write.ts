import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/env';
import { errorText } from '../log';
import { DISPATCH_JOB } from './jobs';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * After a successful write request (which may have committed outbox events), asks for the webhook dispatcher to
 * run now instead of at the next sweep. It never delays or fails the response: on Workers the poke (a QStash
 * publish) finishes under waitUntil; a lost poke only means the sweep dispatches those events a minute later.
 * /jobs/* is left out: a job's own request must not schedule another job.
 */
export function dispatchAfterWrites(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (!WRITES.has(c.req.method) || c.res.status >= 400 || c.req.path.startsWith('/jobs/')) return;
    const services = c.get('services');
    const poked = services.queue.poke(DISPATCH_JOB).catch((err) => services.log.warn('webhook dispatch trigger failed; the sweep will dispatch', { error: errorText(err) }));
    try {
      c.executionCtx.waitUntil(poked);
    } catch {
      // Node has no execution context: the promise runs on in this long-lived process.
    }
  };
}
