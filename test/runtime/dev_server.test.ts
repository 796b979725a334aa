// `npm run dev` as a developer runs it: progress while it migrates and seeds, the demo keys, the envelope for
// what Node's HTTP parser refuses, fresh demo keys on request, and a Ctrl-C/SIGTERM that ends the whole tree.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free_port';

const dataDir = mkdtempSync(join(tmpdir(), 'ris-dev-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

type Dev = { child: ChildProcess; output: () => string; base: string };

/** `npm run dev` in its own process group, resolved once it has printed its whole banner (the last line is the
 * Ctrl-C hint; stdout arrives in chunks, so "listening on" alone may come before the keys). */
async function startDev(extraArgs: string[] = []): Promise<Dev> {
  const port = await freePort();
  const child = spawn('npm', ['run', 'dev', '--', ...extraArgs], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ADMIN_TOKEN: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const until = Date.now() + 90_000;
  while (!out.includes('Ctrl-C stops the server.')) {
    if (Date.now() > until || child.exitCode !== null) throw new Error(`npm run dev did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, output: () => out, base: `http://127.0.0.1:${port}` };
}

/** True while any process of the group still exists. */
const groupAlive = (pgid: number) => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

async function stopAndWait(dev: Dev, signal: NodeJS.Signals) {
  dev.child.kill(signal); // to npm only, as a terminal's Ctrl-C reaches the foreground process
  const until = Date.now() + 20_000;
  while (groupAlive(dev.child.pid!) && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
  const alive = groupAlive(dev.child.pid!);
  if (alive) process.kill(-dev.child.pid!, 'SIGKILL');
  return alive;
}

/** A raw request whose headers exceed Node's limit; returns the whole answer as text. */
function oversizedRequest(base: string, what: 'header' | 'url') {
  const { port } = new URL(base);
  return new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      const big = 'x'.repeat(40_000);
      socket.write(what === 'url' ? `GET /v1/leads?q=${big} HTTP/1.1\r\nHost: x\r\n\r\n` : `GET /v1/leads HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`);
    });
    let answer = '';
    socket.on('data', (d) => (answer += d));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('npm run dev', () => {
  it('with its port taken on the very first start, says so and exits without creating the demo organization', async () => {
    // Keys are shown once: a start that cannot listen must not use them up (the next start below still prints them).
    const blocker = createServer();
    const port = await new Promise<number>((r) => blocker.listen(0, '127.0.0.1', () => r((blocker.address() as { port: number }).port)));
    try {
      const child = spawn('npm', ['run', 'dev'], {
        env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ADMIN_TOKEN: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout!.on('data', (d) => (out += d));
      child.stderr!.on('data', (d) => (out += d));
      const code = await new Promise<number | null>((r) => child.once('exit', r));
      expect(code, out).toBe(1);
      expect(out).toContain(`Port ${port} on 127.0.0.1 is taken`);
      expect(out).not.toContain('checking for the demo organization');
      expect(out).not.toMatch(/svc_live_/);
    } finally {
      blocker.close();
    }
  }, 120_000);

  it('prints progress and the demo keys, answers, and stops its whole process tree on SIGTERM', async () => {
    const dev = await startDev();
    expect(dev.output()).toContain('… opening the embedded database');
    expect(dev.output()).toContain('… checking for the demo organization');
    expect(dev.output()).toMatch(/demo owner \(review queue\)\s+svc_live_/);
    const key = /demo owner \(review queue\)\s+(svc_live_\S+)/.exec(dev.output())![1];
    expect((await fetch(`${dev.base}/v1/leads`, { headers: { 'x-service-key': key } })).status).toBe(200);

    // The pages at once: a desk link that signs in, and one draft already waiting in the review queue.
    const deskLink = /review desk \(agency people\)\s+(\S+)/.exec(dev.output())?.[1];
    expect(deskLink).toMatch(new RegExp(`^${dev.base}/desk/sign-in/`));
    expect(dev.output()).toMatch(/client portal \(Northwind Traders\)\s+http:\/\/127\.0\.0\.1:\d+\/portal\/sign-in\//);
    const signedIn = await fetch(deskLink!, { method: 'POST', redirect: 'manual', headers: { origin: dev.base, 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    expect(signedIn.status).toBe(303);
    const cookie = signedIn.headers.get('set-cookie')!.split(';')[0];
    const queue = await fetch(`${dev.base}/desk/replies`, { headers: { cookie } });
    expect(queue.status).toBe(200);
    expect(await queue.text()).toContain('Tom Becker');

    for (const what of ['header', 'url'] as const) {
      const answer = await oversizedRequest(dev.base, what);
      expect(answer).toMatch(/^HTTP\/1\.1 431 /);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
        error: { code: 'request_header_fields_too_large', message: expect.stringContaining('exceed') },
      });
    }
    expect(await stopAndWait(dev, 'SIGTERM')).toBe(false);
    expect(dev.output()).toContain('SIGTERM: stopping');
  }, 120_000);

  it('on a second start says how to get new keys, and --new-keys prints fresh working ones; SIGINT stops it', async () => {
    const again = await startDev();
    expect(again.output()).toContain('its keys were printed when it was created');
    expect(again.output()).toContain('npm run dev -- --new-keys');
    expect(again.output()).not.toMatch(/svc_live_/);
    expect(again.output()).toMatch(/review desk \(agency people\)\s+http:\/\/127\.0\.0\.1:\d+\/desk\/sign-in\//);
    expect(await stopAndWait(again, 'SIGTERM')).toBe(false);

    const fresh = await startDev(['--new-keys']);
    const key = /demo owner \(review queue\)\s+(svc_live_\S+)/.exec(fresh.output())?.[1];
    expect(key).toBeDefined();
    expect((await fetch(`${fresh.base}/v1/leads`, { headers: { 'x-service-key': key! } })).status).toBe(200);
    expect(await stopAndWait(fresh, 'SIGINT')).toBe(false);
  }, 180_000);
});
