// The jobs Worker in workerd (`wrangler dev`), not a Node imitation: QStash (the local emulator) calls its
// POST /jobs/run, the real Receiver checks the signature inside workerd, the jobs dispatch and deliver through the
// Neon driver to the real PostgreSQL (a database of its own), and the cron handler runs the sweep.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@upstash/qstash';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { WebSocket } from 'ws';
import { openNeon } from '../../lib/db/neon';
import type { Database } from '../../lib/db/types';
import type { AuthContext } from '../../lib/auth/keys';
import { emitEvent } from '../../lib/events/outbox';
import { createOrg } from '../../lib/orgs/admin';
import { createWebhook } from '../../lib/webhooks/manage';
import { createSecretBox } from '../../lib/crypto/secret_box';
import { loadConfig } from '../../lib/config';
import { TIER } from '../helpers/harness';
import { freePort } from '../helpers/free_port';
import { startWranglerDev, type WranglerDev } from '../helpers/wrangler_dev';
import { migrateThroughNeon, recreateDatabase } from '../helpers/it_database';
import { startReceiver, verifyHit, type Receiver } from '../helpers/receiver';
import { dropDatabase } from '../helpers/webhook_env';
import { startQStashEmulator, type QStashEmulator } from '../infra/qstash_emulator';

async function waitFor(check: () => boolean | Promise<boolean>, ms: number, what: string) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await Promise.resolve().then(check).catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.skipIf(TIER !== 'integration')('jobs Worker under wrangler dev (workerd) with QStash', () => {
  const ENCRYPTION_KEY = 'd'.repeat(64);
  const dbName = `ris_wh_worker_${process.pid}`;
  let database: Database;
  let emu: QStashEmulator;
  let rx: Receiver;
  let worker: WranglerDev;
  let base: string;
  let dir: string;
  let orgId: string;
  let secret: string;

  beforeAll(async () => {
    const relay = inject('wsRelayPort');
    const url = await recreateDatabase(inject('itDatabaseUrl'), dbName, relay);
    await migrateThroughNeon(url, relay);
    database = openNeon(url, { webSocketConstructor: WebSocket, wsProxy: `127.0.0.1:${relay}/v1`, insecure: true });
    emu = await startQStashEmulator({ retryDelayMs: 200 });
    rx = await startReceiver();

    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const org = await createOrg(database.db, { name: 'worker webhooks' });
    orgId = org.id;
    const services = { db: database.db, config: loadConfig({ ALLOW_PRIVATE_WEBHOOK_URLS: 'true' }), secrets: createSecretBox(ENCRYPTION_KEY) };
    const auth = { orgId, clientId: null, keyName: 'worker test' } as AuthContext;
    secret = (await createWebhook({ services, auth, input: { name: 'w', url: rx.url, events: ['lead.replied'] }, now: new Date() })).secret;

    dir = mkdtempSync(join(tmpdir(), 'ris-wrangler-'));
    writeFileSync(
      join(dir, 'wrangler.toml'),
      [
        'name = "ris-jobs-test"',
        `main = "${resolve('functions/jobs/index.ts')}"`,
        'compatibility_date = "2026-05-03"',
        'compatibility_flags = ["nodejs_compat"]',
        '[triggers]',
        'crons = ["* * * * *"]',
      ].join('\n'),
    );
    const vars = {
      DATABASE_URL: url,
      NEON_WS_PROXY: `127.0.0.1:${relay}/v1`,
      NEON_INSECURE_WS: 'true',
      UPSTASH_REDIS_REST_URL: inject('upstashUrl'),
      UPSTASH_REDIS_REST_TOKEN: inject('upstashToken'),
      ENCRYPTION_KEY,
      QSTASH_URL: emu.url,
      QSTASH_TOKEN: emu.token,
      QSTASH_CURRENT_SIGNING_KEY: emu.currentSigningKey,
      QSTASH_NEXT_SIGNING_KEY: emu.nextSigningKey,
      PUBLIC_BASE_URL: base,
      ALLOW_PRIVATE_WEBHOOK_URLS: 'true',
      LOG_LEVEL: 'warn',
    };
    worker = await startWranglerDev(['--config', join(dir, 'wrangler.toml'), '--test-scheduled'], vars, { port });
  }, 90_000);

  afterAll(async () => {
    worker?.stop();
    await rx?.close();
    await emu?.close();
    await database?.close();
    await dropDatabase(dbName);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const addEvent = (text: string) =>
    database.db.transaction((tx) => emitEvent(tx, { orgId, kind: 'lead.replied', at: new Date(), data: { reply_id: crypto.randomUUID(), reply_text: text } }));

  it('verifies QStash calls in workerd, dispatches and delivers; refuses an unsigned call', async () => {
    const unsigned = await fetch(`${base}/jobs/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'webhook.dispatch', payload: {} }) });
    expect(unsigned.status, worker.output()).toBe(401);

    await addEvent('delivered from workerd');
    const client = new Client({ baseUrl: emu.url, token: emu.token, devMode: false, enableTelemetry: false });
    await client.publishJSON({ url: `${base}/jobs/run`, body: { kind: 'webhook.dispatch', payload: {} } });
    await waitFor(() => rx.hits.length === 1, 30_000, `the delivery\n${worker.output()}`);
    expect(verifyHit(rx.hits[0], secret).data.reply_text).toBe('delivered from workerd');
    await emu.drain();
    expect(emu.deliveries.every((d) => d.status === 200), JSON.stringify(emu.deliveries) + worker.output()).toBe(true);
    expect(emu.published.map((m) => JSON.parse(m.body).kind)).toContain('webhook.deliver');
  });

  it('runs the sweep from the cron trigger: an event nobody triggered is dispatched and delivered', async () => {
    await addEvent('found by the cron sweep');
    const r = await fetch(`${base}/__scheduled?cron=${encodeURIComponent('* * * * *')}`);
    expect(r.status, worker.output()).toBe(200);
    await waitFor(() => rx.hits.length === 2, 30_000, `the swept delivery\n${worker.output()}`);
    expect(verifyHit(rx.hits[1], secret).data.reply_text).toBe('found by the cron sweep');
  });
});
