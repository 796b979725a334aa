import { Pool, neonConfig } from '@neondatabase/serverless';
import { drizzle } from 'drizzle-orm/neon-serverless';
import * as schema from '../../schema';
import type { Database, Db } from './types';

export type NeonOptions = {
  /** `host:port/path` of a local WebSocket proxy (Neon's documented local setup), else Neon's own endpoint. */
  wsProxy?: string;
  /** Plain ws:// to that proxy; never for a real Neon endpoint. */
  insecure?: boolean;
  /** Node has no global WebSocket before v22; pass the `ws` package there. Workers have one. */
  webSocketConstructor?: unknown;
  max?: number;
};

export function openNeon(url: string, opts: NeonOptions = {}): Database {
  if (opts.webSocketConstructor) neonConfig.webSocketConstructor = opts.webSocketConstructor as typeof WebSocket;
  if (opts.wsProxy) {
    const proxy = opts.wsProxy.replace(/^wss?:\/\//, '').replace(/\/$/, '');
    neonConfig.wsProxy = (host, port) => `${proxy}?address=${host}:${port}`;
  }
  if (opts.insecure) {
    neonConfig.useSecureWebSocket = false;
    neonConfig.pipelineTLS = false;
    neonConfig.pipelineConnect = false;
  }
  const pool = new Pool({ connectionString: url, max: opts.max ?? 10 });
  // An idle pooled connection can be closed by the server (Neon suspends idle computes, an admin terminates
  // sessions). pg-style pools report that as an 'error' event, which would crash a Node process if unhandled;
  // the pool drops that client and the next query opens a new connection.
  pool.on('error', () => undefined);
  const stats = { queries: 0 };
  const counted = new Proxy(pool, {
    get(target, prop, receiver) {
      if (prop === 'query') {
        return (...args: unknown[]) => {
          stats.queries++;
          return (target.query as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return Reflect.get(target, prop, receiver);
    },
  });
  const db = drizzle({ client: counted as Pool, schema }) as unknown as Db;
  return { db, stats, close: () => pool.end() };
}
