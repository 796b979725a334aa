// Each sending tool's documented reply webhook (test/fixtures/inbound, shaped as the providers document them)
// through a source of that provider and the real route: stored as a reply with the provider's thread references,
// non-reply events acknowledged and dropped, a body that is not the provider's format refused.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaigns, replies } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';
import { fixture } from '../inbound/fixtures';
import { addSource, deliver } from './inbound_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const db = () => env.services.db;
const storedReply = async (id: string) => (await db().select().from(replies).where(eq(replies.id, id)))[0];

describe('Instantly reply_received', () => {
  it('stores the reply under the Instantly campaign, with the email id and account its reply API needs', async () => {
    const t = await newTenant(env);
    const source = await addSource(t, 'instantly');
    const r = await deliver(env, source, fixture('instantly_reply_received'));
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ duplicate: false, ignored: false, classification: 'hot' });
    const reply = await storedReply(r.json.reply_id);
    expect(reply).toMatchObject({
      fromEmail: 'dana.whitfield@northwind-freight.com',
      toEmail: 'tom@acme-outreach.io',
      subject: 'Re: Quick question about your carrier onboarding',
      bodyStripped: 'Sounds interesting, can you send over pricing?',
      providerRef: { reply_to_uuid: '019cc0a1-6f3e-7c2d-9a41-2b7f0d5e8c11', eaccount: 'tom@acme-outreach.io' },
      sourceId: source.id,
    });
    expect(reply.bodyHtml).toContain('<blockquote>');
    const [campaign] = await db().select().from(campaigns).where(eq(campaigns.id, r.json.campaign_id));
    expect(campaign).toMatchObject({ name: 'Q1 Logistics Heads', providerCampaignId: '019cc043-b005-72ef-8501-678e06268a93' });
    // Instantly retries a webhook that timed out with the same body.
    const again = await deliver(env, source, fixture('instantly_reply_received'), { auth: 'bearer' });
    expect(again.json).toMatchObject({ duplicate: true, reply_id: r.json.reply_id });
  });

  it('acknowledges an email_opened event without storing anything; refuses a reply event without lead_email', async () => {
    const t = await newTenant(env);
    const source = await addSource(t, 'instantly');
    const opened = await deliver(env, source, fixture('instantly_email_opened'));
    expect(opened.status).toBe(200);
    expect(opened.json).toMatchObject({ ignored: true, reply_id: null });
    expect(opened.json.reason).toEqual(expect.any(String));
    const broken = fixture('instantly_reply_received');
    delete broken.lead_email;
    const r = await deliver(env, source, broken);
    expect(r.status).toBe(400);
    expect(r.json.error.message).toContain('lead_email');
    expect(await db().select().from(replies).where(eq(replies.orgId, t.org.id))).toEqual([]);
  });

  it('a generic body sent to an Instantly source is refused, not misread', async () => {
    const t = await newTenant(env);
    const source = await addSource(t, 'instantly');
    const r = await deliver(env, source, fixture('generic_reply'));
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('validation_error');
  });
});

describe('Smartlead EMAIL_REPLY', () => {
  it('takes the prospect from to_email (Smartlead: from_email is our mailbox) and keeps the thread references', async () => {
    const t = await newTenant(env);
    const source = await addSource(t, 'smartlead');
    const r = await deliver(env, source, fixture('smartlead_email_reply'), { auth: 'query' });
    expect(r.status).toBe(200);
    expect(r.json.classification).toBe('hot');
    const reply = await storedReply(r.json.reply_id);
    expect(reply).toMatchObject({
      fromEmail: 'priya.raman@lumenbio.com',
      fromName: 'Priya Raman',
      toEmail: 'sam@growthline-mail.com',
      rfcMessageId: '<CAJZgRaRf=B4WEPmv4gujBNmJE46XpNbWiN7V_DHsAvyvqgEpDg@mail.gmail.com>',
      inReplyTo: '<sl-7f3a9c2e41@growthline-mail.com>',
      bodyStripped: 'Yes, mostly by hand. Can we talk Thursday?',
    });
    expect(reply.providerRef).toMatchObject({ campaign_id: '9181', email_stats_id: 'a891fe37-c45d-21e8-67ba-fcd44e9c33a8' });
    const [campaign] = await db().select().from(campaigns).where(eq(campaigns.id, r.json.campaign_id));
    expect(campaign).toMatchObject({ name: 'Biotech ops leaders', providerCampaignId: '9181' });
  });

  it('acknowledges an open event and stores nothing', async () => {
    const t = await newTenant(env);
    const source = await addSource(t, 'smartlead');
    const r = await deliver(env, source, fixture('smartlead_email_open'), { auth: 'query' });
    expect(r.json).toMatchObject({ ok: true, ignored: true });
    expect(await db().select().from(replies).where(eq(replies.orgId, t.org.id))).toEqual([]);
  });
});

describe('EmailBison LEAD_REPLIED', () => {
  it('stores the reply with its sender mailbox and Message-IDs', async () => {
    const t = await newTenant(env);
    const source = await addSource(t, 'emailbison');
    const r = await deliver(env, source, fixture('emailbison_lead_replied'), { auth: 'query' });
    expect(r.status).toBe(200);
    expect(r.json.classification).toBe('warm');
    const reply = await storedReply(r.json.reply_id);
    expect(reply).toMatchObject({
      fromEmail: 'jonas.halvorsen@halden-group.no',
      fromName: 'Jonas Halvorsen',
      toEmail: 'nina@acme-outreach.co',
      rfcMessageId: '<CAF7b2kQ1x9hZ@mail.gmail.com>',
      inReplyTo: '<a1b2c3d4e5@acme-outreach.co>',
      receivedAt: new Date('2026-03-05T12:01:33.000Z'),
    });
    const sent = await deliver(env, source, fixture('emailbison_email_sent'), { auth: 'query' });
    expect(sent.json.ignored).toBe(true);
  });
});

describe('an opt-out arriving through a sending tool', () => {
  it('lands on the do-not-contact list in the ingestion transaction and says so in the answer', async () => {
    const t = await newTenant(env);
    const source = await addSource(t, 'smartlead');
    const body = fixture('smartlead_email_reply');
    body.reply_message.text = 'Please remove me from your list.';
    body.reply_message.html = '<div>Please remove me from your list.</div>';
    body.reply_message.message_id = '<optout-1@mail.gmail.com>';
    const r = await deliver(env, source, body, { auth: 'query' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ opted_out: true, classification: 'not_interested' });
    const list = await t.admin('GET', `/admin/v1/orgs/${t.org.id}/opt-outs`);
    expect(list.json.opt_outs.map((o: any) => o.email)).toEqual(['priya.raman@lumenbio.com']);
  });
});
