// The portal as a Worker (issue 19): `wrangler dev --env portal` in workerd against the real PostgreSQL, from the
// admin-issued link to the lead list, with the pages' CSP; and the review desk on the same Worker approving a draft.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { WebSocket } from 'ws';
import { drafts, outboxMessages, replies } from '../../schema';
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
  let deskPath: string;
  let replyId: string;
  let dbUrl: string;
  let relay: number;

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
    // A draft waiting for review (set up as rows: the queueing itself is the API's and tested there).
    const [reply] = await db.db.select({ id: replies.id }).from(replies).where(eq(replies.fromEmail, leadEmail));
    replyId = reply.id;
    await db.db.insert(drafts).values({ replyId, orgId: org.id, suggestionId: 'sug_worker', body: 'Happy to: Tuesday?', reason: 'review_required_at_autonomy_level_1' });
    await db.db.update(replies).set({ status: 'queued' }).where(eq(replies.id, replyId));
    const desk = await inviteWebUser({ db: db.db, now: new Date(), target: { kind: 'desk', orgId: org.id }, input: { email: 'r@agency.example', name: 'Rex' }, signInBase: 'http://x/desk' });
    deskPath = new URL(desk.sign_in_url).pathname;
    recordSecret(inject('logDir'), deskPath.split('/').pop()!);
    dbUrl = url;
    relay = relayPort;
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

  it('the review desk on the same Worker: sign in, open the draft, approve it: one message in the outbox', async () => {
    const done = await fetch(`${worker.base}${deskPath}`, { method: 'POST', redirect: 'manual', headers: { origin: worker.base, 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    expect(done.status, worker.output()).toBe(303);
    const cookie = done.headers.get('set-cookie')!.split(';')[0];
    const shown = await fetch(`${worker.base}/desk/replies/${replyId}`, { headers: { cookie } });
    const html = await shown.text();
    expect(shown.status, html).toBe(200);
    const form = new URLSearchParams({
      _csrf: /name="_csrf" value="([^"]+)"/.exec(html)![1],
      draft_sha: /name="draft_sha" value="([0-9a-f]+)"/.exec(html)![1],
    });
    const approved = await fetch(`${worker.base}/desk/replies/${replyId}/approve`, { method: 'POST', redirect: 'manual', headers: { cookie, origin: worker.base, 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
    expect(approved.status, await approved.text()).toBe(303);
    const db = openNeon(dbUrl, { webSocketConstructor: WebSocket, wsProxy: `127.0.0.1:${relay}/v1`, insecure: true });
    try {
      expect((await db.db.select().from(outboxMessages).where(eq(outboxMessages.replyId, replyId))).map((m) => m.body)).toEqual(['Happy to: Tuesday?']);
      expect((await db.db.select({ status: replies.status }).from(replies).where(eq(replies.id, replyId)))[0].status).toBe('sent');
    } finally {
      await db.close();
    }
  });
});
