// Runs one Worker under `wrangler dev` (workerd) for the Worker tests: a free port, the vars passed with --var,
// wrangler's own files kept inside the repo's ignored .wrangler/, and a stop that ends the whole process group.
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './free_port';

export type WranglerDev = { base: string; output: () => string; stop(): void };

/** Starts `wrangler dev` with `args` (e.g. ['--env', 'leads']) and resolves once /healthz answers 200. */
export async function startWranglerDev(args: string[], vars: Record<string, string>, opts: { port?: number; timeoutMs?: number } = {}): Promise<WranglerDev> {
  const port = opts.port ?? (await freePort());
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const all = ['wrangler', 'dev', ...args, '--port', String(port), '--ip', '127.0.0.1', '--inspector-port', String(await freePort()), '--log-level', 'warn'];
  for (const [k, v] of Object.entries(vars)) all.push('--var', `${k}:${v}`);
  const child: ChildProcess = spawn('npx', all, {
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', XDG_CONFIG_HOME: `${process.cwd()}/.wrangler/config`, CI: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const stop = () => {
    if (!child.pid) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
  };
  const base = `http://127.0.0.1:${port}`;
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const ok = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
    if (ok) return { base, output: () => output, stop };
    await new Promise((r) => setTimeout(r, 250));
  }
  stop();
  throw new Error(`wrangler dev did not answer ${base}/healthz within ${timeoutMs} ms\n${output}`);
}

/** The Worker vars that point a `wrangler dev` Worker at the integration tier's PostgreSQL (relay) and Redis (bridge). */
export function integrationWorkerVars(injected: { itDatabaseUrl: string; wsRelayPort: number; upstashUrl: string; upstashToken: string }): Record<string, string> {
  return {
    DATABASE_URL: injected.itDatabaseUrl,
    NEON_WS_PROXY: `127.0.0.1:${injected.wsRelayPort}/v1`,
    NEON_INSECURE_WS: 'true',
    UPSTASH_REDIS_REST_URL: injected.upstashUrl,
    UPSTASH_REDIS_REST_TOKEN: injected.upstashToken,
    ENCRYPTION_KEY: 'b'.repeat(64),
    LOG_LEVEL: 'warn',
  };
}
