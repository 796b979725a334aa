// The inbound Worker in workerd (wrangler dev): a sending tool's HTML reply through the real runtime (html-to-text,
// the UTF-8 guard, the Neon driver to the real PostgreSQL, Upstash limits), stored once under a redelivery.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { WebSocket } from 'ws';
import { openNeon } from '../../lib/db/neon';
import type { Database } from '../../lib/db/types';
import { createInboundSource } from '../../lib/inbound/sources';
import { createOrg } from '../../lib/orgs/admin';
import { replies } from '../../schema';
import { TIER } from '../helpers/harness';
import { integrationWorkerVars, startWranglerDev, type WranglerDev } from '../helpers/wrangler_dev';
import { recordSecret } from '../helpers/secret_scan';

describe.skipIf(TIER !== 'integration')('inbound Worker (workerd)', () => {
  let worker: WranglerDev;
  let database: Database;
  let source: { id: string; secret: string; orgId: string };

  beforeAll(async () => {
    const relayPort = inject('wsRelayPort');
    const url = inject('itDatabaseUrl');
    database = openNeon(url, { webSocketConstructor: WebSocket, wsProxy: `127.0.0.1:${relayPort}/v1`, insecure: true });
    const org = await createOrg(database.db, { name: 'inbound worker' });
    const created = await createInboundSource(database.db, { orgId: org.id, provider: 'smartlead', baseUrl: 'http://127.0.0.1', now: new Date() });
    recordSecret(inject('logDir'), created.secret);
    source = { id: created.source.id, secret: created.secret, orgId: org.id };
    worker = await startWranglerDev(['--env', 'inbound'], integrationWorkerVars({ itDatabaseUrl: url, wsRelayPort: relayPort, upstashUrl: inject('upstashUrl'), upstashToken: inject('upstashToken') }));
  }, 90_000);

  afterAll(async () => {
    worker?.stop();
    await database?.close();
  });

  const smartleadReply = {
    event_type: 'EMAIL_REPLY',
    campaign_id: 77,
    campaign_name: 'Workerd campaign',
    stats_id: 'st-1',
    from_email: 'sam@agency-mail.com',
    to_email: 'ana@prospect.io',
    to_name: 'Ana',
    subject: 'Quick question',
    sent_message: { message_id: '<ours-1@agency-mail.com>', html: '<p>Hi Ana</p>', text: 'Hi Ana', time: '2026-11-20T09:00:00Z' },
    reply_message: {
      message_id: '<ana-1@mail.prospect.io>',
      html: '<div dir="ltr">Yes — können wir Dienstag um 14 Uhr sprechen?</div><div class="gmail_quote">On Fri, Sam wrote:<blockquote>Hi Ana, we help teams…</blockquote></div>',
      text: '',
      time: '2026-11-20T10:00:00Z',
    },
  };

  it('stores an HTML reply once, stripped of the quoted pitch, and refuses a wrong secret', async () => {
    const post = (token: string) =>
      fetch(`${worker.base}/v1/inbound/${source.id}?token=${encodeURIComponent(token)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(smartleadReply) });
    const first = await post(source.secret);
    const body = await first.json();
    expect(first.status, JSON.stringify(body) + worker.output()).toBe(200);
    expect(body).toMatchObject({ ok: true, duplicate: false, classification: 'hot' });
    const again = await (await post(source.secret)).json();
    expect(again).toMatchObject({ duplicate: true, reply_id: body.reply_id });
    expect((await post('insec_wrong')).status).toBe(401);
    const stored = await database.db.select().from(replies).where(eq(replies.orgId, source.orgId));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ fromEmail: 'ana@prospect.io', toEmail: 'sam@agency-mail.com', bodyStripped: 'Yes — können wir Dienstag um 14 Uhr sprechen?' });
  });
});
