// Shared by the benchmarks: the production adapters against this machine's PostgreSQL and Redis, when asked for.
// BENCH_POSTGRES_URL → the Neon driver over the WebSocket relay to a fresh database on that server (dropped at
// close); BENCH_REDIS_URL → the Upstash clients over the REST bridge to that Redis. Neither set → an empty env, so
// the benchmark runs on the embedded defaults (PGlite, in-process limits). The returned `env` is merged into the
// configuration, so the benchmark goes through the same adapter choice as a deployment.
export type Adapters = {
  env: Record<string, string>;
  /** Which database and limits the run uses, for the printed heading. */
  label: string;
  /** Requests the Upstash bridge has answered so far (0 when Redis is not in use). */
  redisRequests(): number;
  close(): Promise<void>;
};

export async function benchAdapters(name: string): Promise<Adapters> {
  const pgUrl = process.env.BENCH_POSTGRES_URL;
  const redisUrl = process.env.BENCH_REDIS_URL;
  const env: Record<string, string> = {};
  const closers: Array<() => Promise<void>> = [];
  let bridge: { stats: { requests: number } } | null = null;
  if (pgUrl) {
    const { startWsRelay } = await import('../test/infra/ws_relay');
    const { recreateDatabase, migrateThroughNeon, dropDatabase } = await import('../test/helpers/it_database');
    const target = new URL(pgUrl);
    const relay = await startWsRelay({ allow: [`${target.hostname}:${target.port || 5432}`] });
    const dbName = `ris_bench_${name}_${process.pid}`;
    const url = await recreateDatabase(pgUrl, dbName, relay.port);
    await migrateThroughNeon(url, relay.port);
    Object.assign(env, { DATABASE_URL: url, NEON_WS_PROXY: `127.0.0.1:${relay.port}/v1`, NEON_INSECURE_WS: 'true' });
    closers.push(async () => {
      await dropDatabase(pgUrl, dbName, relay.port).catch((err) => console.error('could not drop', dbName, err));
      await relay.close();
    });
  }
  if (redisUrl) {
    const { startUpstashBridge } = await import('../test/infra/upstash_bridge');
    const b = await startUpstashBridge({ redisUrl, token: `bench-${process.pid}` });
    bridge = b;
    Object.assign(env, { UPSTASH_REDIS_REST_URL: b.url, UPSTASH_REDIS_REST_TOKEN: b.token });
    closers.push(() => b.close());
  }
  const database = pgUrl ? 'PostgreSQL via the Neon driver' : 'PGlite';
  const limits = redisUrl ? 'Upstash → Redis' : 'in-process limits';
  return {
    env,
    label: `database: ${database}, ${limits}`,
    redisRequests: () => bridge?.stats.requests ?? 0,
    close: async () => {
      for (const c of closers.reverse()) await c();
    },
  };
}
