// The bridge as its own Worker (`wrangler deploy --env bridge`) under wrangler dev (workerd): a table's rows through
// the real runtime (the 256 KB body cap, the Neon driver to PostgreSQL, rows per minute in Upstash), the same row
// sent twice stored once, a wrong secret refused.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { WebSocket } from 'ws';
import { createBridgeHook } from '../../lib/bridge/hooks';
import { openNeon } from '../../lib/db/neon';
import type { Database } from '../../lib/db/types';
import { createClient, createOrg } from '../../lib/orgs/admin';
import { poolLeads } from '../../schema';
import { TIER } from '../helpers/harness';
import { recordSecret } from '../helpers/secret_scan';
import { integrationWorkerVars, startWranglerDev, type WranglerDev } from '../helpers/wrangler_dev';

describe.skipIf(TIER !== 'integration')('bridge Worker (workerd)', () => {
  let worker: WranglerDev;
  let database: Database;
  let hook: { id: string; secret: string; clientId: string };

  beforeAll(async () => {
    const relayPort = inject('wsRelayPort');
    const url = inject('itDatabaseUrl');
    database = openNeon(url, { webSocketConstructor: WebSocket, wsProxy: `127.0.0.1:${relayPort}/v1`, insecure: true });
    const org = await createOrg(database.db, { name: 'bridge worker', features: { studio: true } });
    const client = await createClient(database.db, org.id, { name: 'Worker client' });
    const created = await createBridgeHook(database.db, { clientId: client.id, toolName: 'Clay', baseUrl: 'http://127.0.0.1', now: new Date() });
    recordSecret(inject('logDir'), created.secret);
    hook = { id: created.hook.id, secret: created.secret, clientId: client.id };
    worker = await startWranglerDev(['--env', 'bridge'], integrationWorkerVars({ itDatabaseUrl: url, wsRelayPort: relayPort, upstashUrl: inject('upstashUrl'), upstashToken: inject('upstashToken') }));
  }, 90_000);

  afterAll(async () => {
    worker?.stop();
    await database?.close();
  });

  it('imports rows once, refuses a wrong secret and a body over 256 KB', async () => {
    const post = (secret: string, body: string) =>
      fetch(`${worker.base}/v1/bridge/inbound/${hook.id}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-bridge-secret': secret }, body });
    const rows = JSON.stringify({ rows: [{ 'Work Email': 'ana@worker-acme.com', 'First Name': 'Ana', Company: 'Worker Acme' }, { first_name: 'Bo', last_name: 'Ek', company: 'Waiting Co' }] });
    const first = await post(hook.secret, rows);
    const body = await first.json();
    expect(first.status, JSON.stringify(body) + worker.output()).toBe(200);
    expect(body).toMatchObject({ ok: true, received: 2, sent_to_pool: 2, unusable: 0, import_today: { added: 1, waiting_for_email: 1 } });
    const again = await (await post(hook.secret, rows)).json();
    expect(again.import_today, JSON.stringify(again)).toMatchObject({ added: 1, waiting_for_email: 1 });
    expect(again.import_today.duplicates).toBeGreaterThanOrEqual(1);
    expect((await post('brsec_wrong', rows)).status).toBe(401);
    expect((await post(hook.secret, JSON.stringify({ email: 'big@worker-acme.com', notes: 'x'.repeat(300 * 1024) }))).status).toBe(413);
    const stored = await database.db.select().from(poolLeads).where(eq(poolLeads.clientId, hook.clientId));
    expect(stored).toHaveLength(2);
  });
});
