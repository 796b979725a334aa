// The Worker itself, not a Node imitation of it: `wrangler dev` runs the leads group in workerd, talking to the
// real PostgreSQL through the Neon driver (over the WebSocket relay) and to Redis through the Upstash bridge.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { WebSocket } from 'ws';
import { openNeon } from '../../lib/db/neon';
import { createCampaign, createClient, createKey, createOrg } from '../../lib/orgs/admin';
import { ingestReply } from '../../lib/ingest/ingest_reply';
import { TIER } from '../helpers/harness';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

async function waitFor(url: string, ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`wrangler dev did not answer ${url} within ${ms} ms`);
}

describe.skipIf(TIER !== 'integration')('wrangler dev (workerd) smoke', () => {
  let child: ChildProcess;
  let port: number;
  let key: string;
  let output = '';

  beforeAll(async () => {
    const relayPort = inject('wsRelayPort');
    const url = inject('itDatabaseUrl');
    const db = openNeon(url, { webSocketConstructor: WebSocket, wsProxy: `127.0.0.1:${relayPort}/v1`, insecure: true });
    const org = await createOrg(db.db, { name: 'worker smoke' });
    const client = await createClient(db.db, org.id, { name: 'C' });
    const campaign = await createCampaign(db.db, org.id, { name: 'Worker campaign', client_id: client.id }, new Date());
    const classify = async () => ({ classification: 'warm' as const, confidence: 1 });
    await ingestReply({ db: db.db, orgId: org.id, classify, now: new Date(), input: { campaign_id: campaign.id, from_email: 'w@x.com', body: 'Tell me more' } });
    key = (await createKey(db.db, org.id, { name: 'worker key' })).secret;
    await db.close();

    port = await freePort();
    const vars = {
      DATABASE_URL: url,
      NEON_WS_PROXY: `127.0.0.1:${relayPort}/v1`,
      NEON_INSECURE_WS: 'true',
      UPSTASH_REDIS_REST_URL: inject('upstashUrl'),
      UPSTASH_REDIS_REST_TOKEN: inject('upstashToken'),
      ENCRYPTION_KEY: 'b'.repeat(64),
      LOG_LEVEL: 'warn',
    };
    const args = ['wrangler', 'dev', '--env', 'leads', '--port', String(port), '--ip', '127.0.0.1', '--inspector-port', String(await freePort()), '--log-level', 'warn'];
    for (const [k, v] of Object.entries(vars)) args.push('--var', `${k}:${v}`);
    child = spawn('npx', args, {
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', XDG_CONFIG_HOME: `${process.cwd()}/.wrangler/config`, CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    await waitFor(`http://127.0.0.1:${port}/healthz`, 60_000).catch((e) => {
      throw new Error(`${e.message}\n${output}`);
    });
  }, 90_000);

  afterAll(() => {
    if (child?.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
    }
  });

  it('serves /healthz and an authenticated route against the real PostgreSQL', async () => {
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(await health.json()).toEqual({ ok: true });
    const unauth = await fetch(`http://127.0.0.1:${port}/v1/leads`);
    expect(unauth.status).toBe(401);
    const r = await fetch(`http://127.0.0.1:${port}/v1/leads`, { headers: { 'x-service-key': key } });
    const body = await r.json();
    expect(r.status, JSON.stringify(body) + output).toBe(200);
    expect(body.leads).toEqual([expect.objectContaining({ email: 'w@x.com', campaign_name: 'Worker campaign', classification: 'warm' })]);
    expect(r.headers.get('x-ratelimit-limit')).toBe('100');
  });
});
