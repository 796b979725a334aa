// The service as a real child process for crash tests (kill -9, restart on the same data): persistent PGlite in
// the embedded tier, its own PostgreSQL database in the integration tier. Shared by the webhook fan-out and the
// send/follow-up crash tests.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { inject } from 'vitest';
import { ADMIN_TOKEN, TIER } from './harness';
import { migrateThroughNeon, recreateDatabase } from './it_database';
import { dropDatabase } from './webhook_env';

export function childService(cleanups: Array<() => Promise<void> | void>) {
  async function storage(): Promise<Record<string, string>> {
    if (TIER !== 'integration') {
      const dir = mkdtempSync(join(tmpdir(), 'ris-crash-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      return { DATA_DIR: dir };
    }
    const relay = inject('wsRelayPort');
    const name = `ris_crash_${process.pid}_${Date.now().toString(36)}`;
    const url = await recreateDatabase(inject('itDatabaseUrl'), name, relay);
    await migrateThroughNeon(url, relay);
    cleanups.push(() => dropDatabase(name));
    return { DATABASE_URL: url, NEON_WS_PROXY: `127.0.0.1:${relay}/v1`, NEON_INSECURE_WS: 'true' };
  }

  /** Starts the service as a child process and resolves with its base URL once it listens. */
  async function startChild(env: Record<string, string>): Promise<{ child: ChildProcess; base: string }> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/webhook_child.ts'], {
      env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: '0', ADMIN_TOKEN, LOG_LEVEL: 'error', ENCRYPTION_KEY: 'b'.repeat(64), ALLOW_PRIVATE_WEBHOOK_URLS: 'true' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    cleanups.push(() => void child.kill('SIGKILL'));
    const line = await new Promise<string>((resolve, reject) => {
      const rl = createInterface({ input: child.stdout! });
      rl.once('line', resolve);
      child.once('exit', (code) => reject(new Error(`child exited early with ${code}`)));
    });
    return { child, base: `http://127.0.0.1:${JSON.parse(line).port}` };
  }

  async function call(base: string, method: string, path: string, body: unknown, auth: Record<string, string>) {
    const res = await fetch(base + path, { method, headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify(body) });
    const json = await res.json();
    if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
    return json as any;
  }

  /** Polls `check` (after `refresh`, when given) until it holds or `ms` pass. */
  async function waitFor(check: () => boolean, ms: number, refresh?: () => Promise<unknown>) {
    const until = Date.now() + ms;
    for (;;) {
      if (refresh) await refresh();
      if (check()) return true;
      if (Date.now() > until) return false;
      await new Promise((r) => setTimeout(r, refresh ? 250 : 20));
    }
  }

  return { storage, startChild, call, waitFor };
}
