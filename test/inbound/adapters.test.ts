// Each provider's documented webhook bodies (test/fixtures/inbound) mapped to the one NormalizedInbound shape:
// replies become whole objects we assert field by field, everything else is acknowledged as `ignored`.
import { describe, expect, it } from 'vitest';
import { adapterFor, INBOUND_PROVIDERS, isInboundProvider } from '../../lib/inbound/adapters';
import type { AdapterResult, InboundProvider, NormalizedInbound } from '../../lib/inbound/types';
import { fixture, without, withValues, type Json } from './fixtures';

const parse = (provider: InboundProvider, body: unknown) => adapterFor(provider).parse(body);

function replyOf(result: AdapterResult): NormalizedInbound {
  if (result.kind !== 'reply') throw new Error(`expected a reply, got ${JSON.stringify(result)}`);
  return result.reply;
}

describe('adapterFor', () => {
  it('has one adapter per provider, named after it', () => {
    expect(INBOUND_PROVIDERS).toEqual(['instantly', 'smartlead', 'emailbison', 'generic']);
    for (const p of INBOUND_PROVIDERS) expect(adapterFor(p).provider).toBe(p);
    expect(isInboundProvider('smartlead')).toBe(true);
    expect(isInboundProvider('lemlist')).toBe(false);
    expect(isInboundProvider('toString')).toBe(false);
  });
});

describe('event names', () => {
  it.each<[InboundProvider, (type: string) => Json]>([
    ['instantly', (type) => ({ ...fixture('instantly_email_opened'), event_type: type })],
    ['smartlead', (type) => ({ ...fixture('smartlead_email_open'), event_type: type })],
    ['emailbison', (type) => withValues('emailbison_email_sent', { 'event.type': type })],
  ])('%s: any other name is ignored with a string reason, cut short when long', (provider, body) => {
    for (const type of ['constructor', '__proto__', 'toString', 'x'.repeat(500)]) {
      const result = parse(provider, body(type));
      expect(result.kind).toBe('ignored');
      expect(result.kind === 'ignored' && typeof result.reason === 'string' && result.reason.length < 200).toBe(true);
    }
  });
});

describe('instantly', () => {
  it('maps reply_received', () => {
    expect(parse('instantly', fixture('instantly_reply_received'))).toEqual({
      kind: 'reply',
      reply: {
        message_id: '019cc0a1-6f3e-7c2d-9a41-2b7f0d5e8c11',
        rfc_message_id: null,
        in_reply_to: null,
        references: null,
        from_email: 'dana.whitfield@northwind-freight.com',
        from_name: null,
        to_email: 'tom@acme-outreach.io',
        subject: 'Re: Quick question about your carrier onboarding',
        text: 'Sounds interesting, can you send over pricing?\n\nOn Tue, Mar 3, 2026 Tom wrote:\n> Hi Dana, following up on my note from last week.',
        html: '<div>Sounds interesting, can you send over pricing?</div><blockquote>Hi Dana, following up on my note from last week.</blockquote>',
        received_at: '2026-03-04T14:22:07.512Z',
        campaign: { id: '019cc043-b005-72ef-8501-678e06268a93', name: 'Q1 Logistics Heads' },
        provider_ref: { reply_to_uuid: '019cc0a1-6f3e-7c2d-9a41-2b7f0d5e8c11', eaccount: 'tom@acme-outreach.io' },
      },
    });
  });

  it('maps auto_reply_received as a reply (the classifier labels it)', () => {
    expect(replyOf(parse('instantly', fixture('instantly_auto_reply_received')))).toEqual({
      message_id: '019cc0a1-7a10-7d4e-8b52-3c8e1e6f9d22',
      rfc_message_id: null,
      in_reply_to: null,
      references: null,
      from_email: 'ops@harbor-lines.com',
      from_name: null,
      to_email: 'tom@acme-outreach.io',
      subject: 'Automatic reply: Quick question about your carrier onboarding',
      text: 'I am out of the office until March 12 with limited access to email.',
      html: '<p>I am out of the office until March 12 with limited access to email.</p>',
      received_at: '2026-03-04T09:00:41.000Z',
      campaign: { id: '019cc043-b005-72ef-8501-678e06268a93', name: 'Q1 Logistics Heads' },
      provider_ref: { reply_to_uuid: '019cc0a1-7a10-7d4e-8b52-3c8e1e6f9d22', eaccount: 'tom@acme-outreach.io' },
    });
  });

  it('keeps a text-only and an HTML-only reply', () => {
    const textOnly = replyOf(parse('instantly', without('instantly_reply_received', 'reply_html')));
    expect([textOnly.text?.startsWith('Sounds interesting'), textOnly.html]).toEqual([true, null]);
    const htmlOnly = replyOf(parse('instantly', without('instantly_reply_received', 'reply_text')));
    expect([htmlOnly.text, htmlOnly.html?.startsWith('<div>')]).toEqual([null, true]);
  });

  it('falls back to the snippet only when neither full body came', () => {
    const r = replyOf(parse('instantly', without('instantly_reply_received', 'reply_text', 'reply_html')));
    expect([r.text, r.html]).toEqual(['Sounds interesting, can you send over pricing?', null]);
  });

  it('identifies a reply without email_id by lead and event time, and cannot answer it through Instantly', () => {
    const r = replyOf(parse('instantly', without('instantly_reply_received', 'email_id')));
    expect(r.message_id).toBe('dana.whitfield@northwind-freight.com 2026-03-04T14:22:07.512Z');
    expect(r.provider_ref).toEqual({ reply_to_uuid: null, eaccount: 'tom@acme-outreach.io' });
  });

  it('reads unix seconds and milliseconds, and leaves received_at out when there is no time', () => {
    expect(replyOf(parse('instantly', withValues('instantly_reply_received', { timestamp: 1772634127 }))).received_at).toBe('2026-03-04T14:22:07.000Z');
    expect(replyOf(parse('instantly', withValues('instantly_reply_received', { timestamp: 1772634127512 }))).received_at).toBe('2026-03-04T14:22:07.512Z');
    expect(replyOf(parse('instantly', without('instantly_reply_received', 'timestamp')))).not.toHaveProperty('received_at');
  });

  it.each([
    ['instantly_email_opened', 'Instantly event "email_opened" is not a reply.'],
    ['instantly_lead_interested', 'Instantly event "lead_interested" is not a reply.'],
  ])('ignores %s', (name, reason) => {
    expect(parse('instantly', fixture(name))).toEqual({ kind: 'ignored', reason });
  });

  it('ignores a custom label event and does not validate the rest of a non-reply', () => {
    expect(parse('instantly', { ...fixture('instantly_lead_interested'), event_type: 'Demo Booked' }).kind).toBe('ignored');
    expect(parse('instantly', { ...fixture('instantly_email_opened'), lead_email: 42, campaign_id: {} }).kind).toBe('ignored');
  });
});

describe('smartlead', () => {
  it('maps EMAIL_REPLY: the lead is to_email/sl_lead_email, from_email is our mailbox', () => {
    expect(parse('smartlead', fixture('smartlead_email_reply'))).toEqual({
      kind: 'reply',
      reply: {
        message_id: '<CAJZgRaRf=B4WEPmv4gujBNmJE46XpNbWiN7V_DHsAvyvqgEpDg@mail.gmail.com>',
        rfc_message_id: '<CAJZgRaRf=B4WEPmv4gujBNmJE46XpNbWiN7V_DHsAvyvqgEpDg@mail.gmail.com>',
        in_reply_to: '<sl-7f3a9c2e41@growthline-mail.com>',
        references: null,
        from_email: 'priya.raman@lumenbio.com',
        from_name: 'Priya Raman',
        to_email: 'sam@growthline-mail.com',
        subject: 'Lab automation for Lumen Bio',
        text: 'Yes, mostly by hand. Can we talk Thursday?\n',
        html: '<div dir="ltr">Yes, mostly by hand. Can we talk Thursday?</div>',
        received_at: '2026-03-05T10:12:44.618Z',
        campaign: { id: '9181', name: 'Biotech ops leaders' },
        provider_ref: {
          campaign_id: '9181',
          email_stats_id: 'a891fe37-c45d-21e8-67ba-fcd44e9c33a8',
          reply_message_id: '<CAJZgRaRf=B4WEPmv4gujBNmJE46XpNbWiN7V_DHsAvyvqgEpDg@mail.gmail.com>',
          reply_email_time: '2026-03-05T10:12:44.618881+00:00',
        },
      },
    });
  });

  it('maps a colleague answering for the lead from the deprecated fields (no reply_message)', () => {
    expect(replyOf(parse('smartlead', fixture('smartlead_email_reply_colleague')))).toEqual({
      message_id: '<BDD5kUwc77maSjLRv2gmq35VkzEF9K4L3csPPCVx8e5kWbUnrsD@mail.gmail.com>',
      rfc_message_id: '<BDD5kUwc77maSjLRv2gmq35VkzEF9K4L3csPPCVx8e5kWbUnrsD@mail.gmail.com>',
      in_reply_to: null,
      references: null,
      from_email: 'giulia.conti@vetra-logistics.it',
      from_name: 'Giulia Conti',
      to_email: 'sam@growthline-mail.com',
      subject: 'Some more conversions?',
      text: 'Marco moved on last month, I look after this now. Send me the details.\n',
      html: null,
      received_at: '2026-03-06T15:40:09.000Z',
      campaign: { id: '9244', name: 'EU freight forwarders' },
      provider_ref: {
        campaign_id: '9244',
        email_stats_id: 'c3d5f7a9-1b2c-4d3e-9f4a-5b6c7d8e9f00',
        reply_message_id: '<BDD5kUwc77maSjLRv2gmq35VkzEF9K4L3csPPCVx8e5kWbUnrsD@mail.gmail.com>',
        reply_email_time: '2026-03-06T15:40:09+00:00',
      },
    });
  });

  it('never takes our own mailbox for the prospect, and names the prospect only from a to_name that is theirs', () => {
    const ours = replyOf(parse('smartlead', withValues('smartlead_email_reply', { 'leadCorrespondence.replyReceivedFrom': 'sam@growthline-mail.com' })));
    expect(ours.from_email).toBe('priya.raman@lumenbio.com');
    const noCorrespondence = without('smartlead_email_reply', 'leadCorrespondence');
    const toUs = replyOf(parse('smartlead', { ...noCorrespondence, to_email: 'sam@growthline-mail.com', to_name: 'Sam Carter' }));
    expect([toUs.from_email, toUs.from_name]).toEqual(['priya.raman@lumenbio.com', null]);
  });

  it('keeps a text-only and an HTML-only reply', () => {
    const textOnly = replyOf(parse('smartlead', without('smartlead_email_reply', 'reply_message.html', 'reply_body')));
    expect([textOnly.text, textOnly.html]).toEqual(['Yes, mostly by hand. Can we talk Thursday?\n', null]);
    const htmlOnly = replyOf(parse('smartlead', without('smartlead_email_reply', 'reply_message.text', 'preview_text')));
    expect([htmlOnly.text, htmlOnly.html]).toEqual([null, '<div dir="ltr">Yes, mostly by hand. Can we talk Thursday?</div>']);
  });

  it('turns ids into strings whatever their JSON type', () => {
    const asStrings = replyOf(parse('smartlead', withValues('smartlead_email_reply', { campaign_id: '9181' })));
    expect(asStrings).toEqual(replyOf(parse('smartlead', fixture('smartlead_email_reply'))));
  });

  it('identifies a reply without any Message-ID by stats_id and reply time', () => {
    const r = replyOf(parse('smartlead', without('smartlead_email_reply', 'reply_message.message_id', 'message_id')));
    expect([r.message_id, r.rfc_message_id]).toEqual(['a891fe37-c45d-21e8-67ba-fcd44e9c33a8 2026-03-05T10:12:44.618881+00:00', null]);
  });

  it('leaves received_at out when no time is given', () => {
    const r = replyOf(parse('smartlead', without('smartlead_email_reply', 'reply_message.time', 'time_replied', 'event_timestamp')));
    expect(r).not.toHaveProperty('received_at');
  });

  it.each([
    ['smartlead_email_open', 'Smartlead event "EMAIL_OPEN" is not a reply.'],
    ['smartlead_untracked_replies', 'Smartlead event "UNTRACKED_REPLIES" is a mail that belongs to no campaign, not a prospect\'s reply.'],
  ])('ignores %s', (name, reason) => {
    expect(parse('smartlead', fixture(name))).toEqual({ kind: 'ignored', reason });
  });

  it.each(['EMAIL_SENT', 'EMAIL_LINK_CLICK', 'EMAIL_BOUNCE', 'LEAD_UNSUBSCRIBED', 'LEAD_CATEGORY_UPDATED'])('ignores %s', (type) => {
    expect(parse('smartlead', { ...fixture('smartlead_email_open'), event_type: type }).kind).toBe('ignored');
  });
});

describe('emailbison', () => {
  it('maps LEAD_REPLIED', () => {
    expect(parse('emailbison', fixture('emailbison_lead_replied'))).toEqual({
      kind: 'reply',
      reply: {
        message_id: '725',
        rfc_message_id: '<CAF7b2kQ1x9hZ@mail.gmail.com>',
        in_reply_to: '<a1b2c3d4e5@acme-outreach.co>',
        references: null,
        from_email: 'jonas.halvorsen@halden-group.no',
        from_name: 'Jonas Halvorsen',
        to_email: 'nina@acme-outreach.co',
        subject: 'Re: Faster month-end close at Halden',
        text: 'Not right now, maybe after our audit in May.',
        html: '<div>Not right now, maybe after our audit in May.</div>',
        received_at: '2026-03-05T12:01:33.000Z',
        campaign: { id: '2', name: 'Nordic CFOs' },
        provider_ref: { reply_id: '725', sender_email_id: '3', lead_id: '1', scheduled_email_id: '4' },
      },
    });
  });

  it('accepts the event type in lower case, as the API lists it', () => {
    const body = withValues('emailbison_lead_replied', { 'event.type': 'lead_replied' });
    expect(parse('emailbison', body)).toEqual(parse('emailbison', fixture('emailbison_lead_replied')));
  });

  it('falls back to the lead for the address and name, and to the sender email for our mailbox', () => {
    const body = without('emailbison_lead_replied', 'data.reply.from_email_address', 'data.reply.from_name', 'data.reply.primary_to_email_address');
    const r = replyOf(parse('emailbison', body));
    expect([r.from_email, r.from_name, r.to_email]).toEqual(['jonas.halvorsen@halden-group.no', 'Jonas Halvorsen', 'nina@acme-outreach.co']);
  });

  it('keeps a text-only and an HTML-only reply', () => {
    const textOnly = replyOf(parse('emailbison', without('emailbison_lead_replied', 'data.reply.html_body')));
    expect([textOnly.text, textOnly.html]).toEqual(['Not right now, maybe after our audit in May.', null]);
    const htmlOnly = replyOf(parse('emailbison', without('emailbison_lead_replied', 'data.reply.text_body')));
    expect([htmlOnly.text, htmlOnly.html]).toEqual([null, '<div>Not right now, maybe after our audit in May.</div>']);
  });

  it('uses the uuid when the reply id is absent', () => {
    const r = replyOf(parse('emailbison', without('emailbison_lead_replied', 'data.reply.id')));
    expect([r.message_id, r.provider_ref?.reply_id]).toEqual(['9e7c1d4a-2b3f-4e5a-8c6d-7f8091a2b3c4', null]);
  });

  it.each([
    ['emailbison_email_sent', 'EmailBison event "EMAIL_SENT" is not a reply.'],
    ['emailbison_lead_interested', 'EmailBison event "LEAD_INTERESTED" labels a reply already delivered as LEAD_REPLIED.'],
  ])('ignores %s', (name, reason) => {
    expect(parse('emailbison', fixture(name))).toEqual({ kind: 'ignored', reason });
  });

  it.each(['EMAIL_OPENED', 'EMAIL_BOUNCED', 'LEAD_UNSUBSCRIBED', 'UNTRACKED_REPLY_RECEIVED', 'TAG_ATTACHED'])('ignores %s', (type) => {
    expect(parse('emailbison', withValues('emailbison_email_sent', { 'event.type': type })).kind).toBe('ignored');
  });
});

describe('generic', () => {
  it('maps our own format; an RFC Message-ID is also the rfc_message_id', () => {
    expect(parse('generic', fixture('generic_reply'))).toEqual({
      kind: 'reply',
      reply: {
        message_id: '<CAOq8Z1vT4fK2@mail.example.net>',
        rfc_message_id: '<CAOq8Z1vT4fK2@mail.example.net>',
        in_reply_to: '<m-20260303-0001@agency-mailer.com>',
        references: '<m-20260301-0001@agency-mailer.com> <m-20260303-0001@agency-mailer.com>',
        from_email: 'lee.okafor@brightpath.io',
        from_name: 'Lee Okafor',
        to_email: 'alex@agency-mailer.com',
        subject: 'Re: Onboarding 40 new reps this quarter?',
        text: 'Interesting timing. Can you share a case study?',
        html: '<p>Interesting timing. Can you share a case study?</p>',
        received_at: '2026-03-05T08:30:00.000Z',
        campaign: { id: '3141', name: 'Sales enablement Q1' },
      },
    });
  });

  it('takes the minimal body: message_id, from_email, one body and a campaign name', () => {
    const minimal: Json = { message_id: 'zap-8842-1', from_email: 'lee@brightpath.io', text: 'Yes please', campaign: { name: 'Sales enablement Q1' } };
    expect(replyOf(parse('generic', minimal))).toEqual({
      message_id: 'zap-8842-1',
      rfc_message_id: null,
      in_reply_to: null,
      references: null,
      from_email: 'lee@brightpath.io',
      from_name: null,
      to_email: null,
      subject: null,
      text: 'Yes please',
      html: null,
      campaign: { id: null, name: 'Sales enablement Q1' },
    });
  });

  it('keeps a text-only and an HTML-only reply', () => {
    expect(replyOf(parse('generic', without('generic_reply', 'html'))).html).toBeNull();
    expect(replyOf(parse('generic', without('generic_reply', 'text'))).text).toBeNull();
  });
});
