// The Worker itself, not a Node imitation of it: `wrangler dev` runs the leads group in workerd, talking to the
// real PostgreSQL through the Neon driver (over the WebSocket relay) and to Redis through the Upstash bridge.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { WebSocket } from 'ws';
import { openNeon } from '../../lib/db/neon';
import { createCampaign, createClient, createKey, createOrg } from '../../lib/orgs/admin';
import { ingestReply } from '../../lib/ingest/ingest_reply';
import { TIER } from '../helpers/harness';
import { integrationWorkerVars, startWranglerDev, type WranglerDev } from '../helpers/wrangler_dev';

describe.skipIf(TIER !== 'integration')('wrangler dev (workerd) smoke', () => {
  let worker: WranglerDev;
  let key: string;

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

    worker = await startWranglerDev(['--env', 'leads'], integrationWorkerVars({ itDatabaseUrl: url, wsRelayPort: relayPort, upstashUrl: inject('upstashUrl'), upstashToken: inject('upstashToken') }));
  }, 90_000);

  afterAll(() => worker?.stop());

  it('serves /healthz and an authenticated route against the real PostgreSQL', async () => {
    const health = await fetch(`${worker.base}/healthz`);
    expect(await health.json()).toEqual({ ok: true });
    const unauth = await fetch(`${worker.base}/v1/leads`);
    expect(unauth.status).toBe(401);
    const r = await fetch(`${worker.base}/v1/leads`, { headers: { 'x-service-key': key } });
    const body = await r.json();
    expect(r.status, JSON.stringify(body) + worker.output()).toBe(200);
    expect(body.leads).toEqual([expect.objectContaining({ email: 'w@x.com', campaign_name: 'Worker campaign', classification: 'warm' })]);
    expect(r.headers.get('x-ratelimit-limit')).toBe('100');
  });
});
