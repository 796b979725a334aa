// The proof: kill -9 of the server while plan steps run, restart on the same data, every step ran exactly
// once in effect. Honestly: a step whose run finished its effect but was killed before the step was marked done
// runs again after its lease expires (at least once); its effect is keyed by the step id, so the second run applies
// nothing (exactly once in effect). The report counts both: run starts (more than the steps) and applied effects
// (exactly one per step).
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { childService } from '../helpers/child_service';
import { ADMIN_TOKEN } from '../helpers/harness';

const STEPS = 30;
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});
const { storage } = childService(cleanups);

type Counts = Record<string, number> & { plan_status?: unknown };
type Child = { child: ChildProcess; latest: () => Counts | null; report: Promise<Counts> };

async function startChild(env: Record<string, string>): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/runtime/plan_crash_child.ts'], {
    env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: '0', ADMIN_TOKEN, LOG_LEVEL: 'error', ENCRYPTION_KEY: 'c'.repeat(64), CLOCK: 'wall' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  cleanups.push(() => void child.kill('SIGKILL'));
  let latest: Counts | null = null;
  let resolveReport: (c: Counts) => void;
  const report = new Promise<Counts>((r) => (resolveReport = r));
  const rl = createInterface({ input: child.stdout! });
  const started = new Promise<void>((resolve, reject) => {
    rl.on('line', (line) => {
      const msg = JSON.parse(line);
      if (msg.port) resolve();
      if (msg.progress) latest = msg.progress;
      if (msg.report) {
        latest = msg.report;
        resolveReport(msg.report);
      }
    });
    child.once('exit', (code) => reject(new Error(`child exited early with ${code}`)));
  });
  await started;
  return { child, latest: () => latest, report };
}

async function until(check: () => boolean, ms: number) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting for the child');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function kill9(c: Child) {
  const exited = new Promise((r) => c.child.once('exit', r));
  c.child.kill('SIGKILL');
  await exited;
}

describe('kill -9 while plan steps run', () => {
  it('every step ran exactly once in effect after restarts; steps cut off mid-run were taken over', async () => {
    const env = await storage();
    // First life: kill it the moment enough effects exist — that step is inside its post-effect window, so at
    // least one step is guaranteed to have its effect committed but not be marked done.
    const first = await startChild({ ...env, PLAN_CRASH_SEED: String(STEPS) });
    await until(() => (first.latest()?.effects ?? 0) >= 6, 60_000);
    await kill9(first);
    const second = await startChild(env);
    await until(() => (second.latest()?.effects ?? 0) >= 16, 60_000);
    await kill9(second);
    const third = await startChild(env);
    const report = await Promise.race([third.report, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no report')), 90_000))]);
    await kill9(third);
    console.log('plan crash report', JSON.stringify(report));

    expect(report.steps).toBe(STEPS);
    expect(report.done).toBe(STEPS);
    expect(report.lost).toBe(0);
    expect(report.effects).toBe(STEPS);
    expect(report.applied).toBe(STEPS);
    expect(report.doubled).toBe(0);
    expect(report.plan_status).toBe('done');
    // The kills really cut runs off: some steps started more than once, some after their effect existed.
    expect(report.runs).toBeGreaterThan(STEPS);
    expect(report.rerun_steps).toBeGreaterThan(0);
    expect(report.rerun_after_effect).toBeGreaterThan(0);
  }, 240_000);
});
