// The portal as a Worker (issue 19): `wrangler dev --env portal` in workerd against the real PostgreSQL, from the
// admin-issued link to the lead list, with the pages' CSP.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { WebSocket } from 'ws';
import { openNeon } from '../../lib/db/neon';
import { ingestReply } from '../../lib/ingest/ingest_reply';
import { createCampaign, createClient, createOrg } from '../../lib/orgs/admin';
import { inviteWebUser } from '../../lib/web/users';
import { TIER } from '../helpers/harness';
import { recordSecret } from '../helpers/secret_scan';
import { integrationWorkerVars, startWranglerDev, type WranglerDev } from '../helpers/wrangler_dev';

describe.skipIf(TIER !== 'integration')('the portal Worker (workerd)', () => {
  let worker: WranglerDev;
  let signInPath: string;
  let leadEmail: string;

  beforeAll(async () => {
    const relayPort = inject('wsRelayPort');
    const url = inject('itDatabaseUrl');
    const db = openNeon(url, { webSocketConstructor: WebSocket, wsProxy: `127.0.0.1:${relayPort}/v1`, insecure: true });
    const org = await createOrg(db.db, { name: 'portal worker' });
    const client = await createClient(db.db, org.id, { name: 'C' });
    const campaign = await createCampaign(db.db, org.id, { name: 'Portal campaign', client_id: client.id }, new Date());
    leadEmail = `w${Date.now()}@portal-worker.example`;
    const classify = async () => ({ classification: 'warm' as const, confidence: 1 });
    await ingestReply({ db: db.db, orgId: org.id, classify, now: new Date(), input: { campaign_id: campaign.id, from_email: leadEmail, body: 'Tell me more' } });
    const invited = await inviteWebUser({ db: db.db, now: new Date(), target: { kind: 'portal', clientId: client.id }, input: { email: 'p@client.example', name: 'Pia' }, signInBase: 'http://x/portal' });
    signInPath = new URL(invited.sign_in_url).pathname;
    recordSecret(inject('logDir'), signInPath.split('/').pop()!);
    await db.close();
    worker = await startWranglerDev(['--env', 'portal'], integrationWorkerVars({ itDatabaseUrl: url, wsRelayPort: relayPort, upstashUrl: inject('upstashUrl'), upstashToken: inject('upstashToken') }));
  }, 90_000);

  afterAll(() => worker?.stop());

  it('signs in by link and shows the lead list with the pages CSP', async () => {
    const landing = await fetch(`${worker.base}${signInPath}`);
    expect(landing.status, worker.output()).toBe(200);
    const done = await fetch(`${worker.base}${signInPath}`, { method: 'POST', redirect: 'manual', headers: { origin: worker.base, 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    expect(done.status, worker.output()).toBe(303);
    const cookie = done.headers.get('set-cookie')!.split(';')[0];
    expect(cookie).toMatch(/^ris_portal=/);
    const list = await fetch(`${worker.base}/portal/leads`, { headers: { cookie } });
    const html = await list.text();
    expect(list.status, html).toBe(200);
    expect(html).toContain(leadEmail);
    expect(list.headers.get('content-security-policy')).toContain("form-action 'self'");
    expect((await fetch(`${worker.base}/portal/leads`)).status).toBe(401);
  });
});
