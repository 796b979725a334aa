// Shared by the benchmarks: the production adapters against this machine's PostgreSQL and Redis, when asked for.
// BENCH_POSTGRES_URL → the Neon driver over the WebSocket relay to a fresh database on that server (dropped at
// close); BENCH_REDIS_URL → the Upstash clients over the REST bridge to that Redis, the bridge in a process of its
// own (bench/bridge_process.ts) as Upstash is a service of its own. Neither set → an empty env, so
// the benchmark runs on the embedded defaults (PGlite, in-process limits). The returned `env` is merged into the
// configuration, so the benchmark goes through the same adapter choice as a deployment.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export type Adapters = {
  env: Record<string, string>;
  /** Which database and limits the run uses, for the printed heading. */
  label: string;
  /** Requests the Upstash bridge has answered so far (0 when Redis is not in use). */
  redisRequests(): Promise<number>;
  close(): Promise<void>;
};

export async function benchAdapters(name: string): Promise<Adapters> {
  const pgUrl = process.env.BENCH_POSTGRES_URL;
  const redisUrl = process.env.BENCH_REDIS_URL;
  const env: Record<string, string> = {};
  const closers: Array<() => Promise<void>> = [];
  let bridge: ChildProcess | null = null;
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
    const token = `bench-${process.pid}`;
    const child = fork(fileURLToPath(new URL('./bridge_process.ts', import.meta.url)), [redisUrl, token], { execArgv: ['--import', 'tsx'] });
    const { url } = await reply<{ url: string }>(child);
    bridge = child;
    Object.assign(env, { UPSTASH_REDIS_REST_URL: url, UPSTASH_REDIS_REST_TOKEN: token });
    closers.push(async () => {
      const exited = new Promise((done) => child.once('exit', done));
      child.disconnect();
      await exited;
    });
  }
  const database = pgUrl ? 'PostgreSQL via the Neon driver' : 'PGlite';
  const limits = redisUrl ? 'Upstash → Redis' : 'in-process limits';
  return {
    env,
    label: `database: ${database}, ${limits}`,
    redisRequests: async () => {
      if (!bridge) return 0;
      const answer = reply<{ requests: number }>(bridge);
      bridge.send('stats');
      return (await answer).requests;
    },
    close: async () => {
      for (const c of closers.reverse()) await c();
    },
  };
}

/** The child's next message. */
function reply<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => {
      child.off('message', onMessage);
      reject(new Error(`the bridge process exited (${code})`));
    };
    const onMessage = (m: unknown) => {
      child.off('exit', onExit);
      resolve(m as T);
    };
    child.once('message', onMessage);
    child.once('exit', onExit);
  });
}
