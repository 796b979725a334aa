// Bodies that are not what a provider documents: `invalid`, with every problem in one sentence that starts with
// the field to fix, all reported at once.
import { describe, expect, it } from 'vitest';
import { adapterFor, INBOUND_PROVIDERS } from '../../lib/inbound/adapters';
import type { InboundProvider } from '../../lib/inbound/types';
import { fixture, without, withValues } from './fixtures';

const parse = (provider: InboundProvider, body: unknown) => adapterFor(provider).parse(body);
const invalid = (...problems: string[]) => ({ kind: 'invalid', problems });

describe.each(INBOUND_PROVIDERS)('%s: a body that is not a JSON object', (provider) => {
  it.each([
    [null, 'null'],
    [undefined, 'nothing'],
    [[], 'an array'],
    [[{ event_type: 'reply_received' }], 'an array'],
    ['', 'a string'],
    ['{"event_type":"reply_received"}', 'a string'],
    [42, 'a number'],
    [true, 'a boolean'],
  ])('%j is refused', (body, kind) => {
    expect(parse(provider, body)).toEqual(invalid(`body: expected a JSON object, got ${kind}`));
  });
});

describe('an empty object names the first field each format needs', () => {
  it.each<[InboundProvider, string[]]>([
    ['instantly', ['event_type: missing']],
    ['smartlead', ['event_type: missing']],
    ['emailbison', ['event: missing']],
    ['generic', ['message_id: missing', 'from_email: missing', 'campaign: missing']],
  ])('%s', (provider, problems) => {
    expect(parse(provider, {})).toEqual(invalid(...problems));
  });
});

describe('instantly', () => {
  it('a reply without the lead’s address', () => {
    expect(parse('instantly', without('instantly_reply_received', 'lead_email'))).toEqual(invalid('lead_email: missing'));
  });

  it('wrong types, each named', () => {
    const body = withValues('instantly_reply_received', { lead_email: 42, campaign_id: {}, reply_text: ['Sounds good'] });
    expect(parse('instantly', body)).toEqual(
      invalid('campaign_id: expected a string or a number, got an object', 'lead_email: expected a string, got a number', 'reply_text: expected a string, got an array'),
    );
    expect(parse('instantly', withValues('instantly_reply_received', { event_type: 5 }))).toEqual(invalid('event_type: expected a string, got a number'));
    expect(parse('instantly', withValues('instantly_reply_received', { event_type: ' ' }))).toEqual(invalid('event_type: empty'));
  });

  it('values that are the right type but not usable, all at once', () => {
    const body = withValues('instantly_reply_received', {
      lead_email: 'dana at northwind',
      email_account: 'tom',
      timestamp: 'yesterday',
      reply_text: '',
      reply_html: '  ',
      reply_text_snippet: null,
      campaign_id: null,
      campaign_name: '',
    });
    expect(parse('instantly', body)).toEqual(
      invalid(
        'lead_email: not an email address',
        'email_account: not an email address',
        'timestamp: not a timestamp (ISO 8601 or unix time)',
        'reply_text: missing (reply_text, reply_html and reply_text_snippet are all empty)',
        'campaign_id / campaign_name: missing',
      ),
    );
  });

  it('a reply with neither email_id nor timestamp cannot be identified', () => {
    expect(parse('instantly', without('instantly_reply_received', 'email_id', 'timestamp'))).toEqual(
      invalid('email_id: missing (and no timestamp to identify the reply by)'),
    );
  });
});

describe('smartlead', () => {
  it('a reply without any prospect address', () => {
    const body = without('smartlead_email_reply', 'leadCorrespondence', 'sl_lead_email', 'to_email');
    expect(parse('smartlead', body)).toEqual(invalid('leadCorrespondence.replyReceivedFrom / sl_lead_email / to_email: missing'));
  });

  it('a reply whose only address is our own mailbox', () => {
    const mailbox = 'sam@growthline-mail.com';
    const body = withValues('smartlead_email_reply', { sl_lead_email: mailbox, to_email: mailbox, 'leadCorrespondence.replyReceivedFrom': mailbox });
    expect(parse('smartlead', body)).toEqual(invalid('sl_lead_email: is our own mailbox (from_email)'));
  });

  it('wrong types, each named', () => {
    const body = withValues('smartlead_email_reply', { reply_message: 'Yes, mostly by hand.', campaign_id: true, 'sent_message.time': {} });
    expect(parse('smartlead', body)).toEqual(
      invalid(
        'campaign_id: expected a string or a number, got a boolean',
        'reply_message: expected an object, got a string',
        'sent_message.time: expected an ISO 8601 string or a unix time, got an object',
      ),
    );
  });

  it('only the event type: every missing part of a reply', () => {
    expect(parse('smartlead', { event_type: 'EMAIL_REPLY' })).toEqual(
      invalid(
        'leadCorrespondence.replyReceivedFrom / sl_lead_email / to_email: missing',
        'reply_message.text / reply_message.html: missing (and no preview_text or reply_body)',
        'campaign_id / campaign_name: missing',
        'reply_message.message_id: missing (and no stats_id with a reply time)',
      ),
    );
  });

  it('an unreadable reply time', () => {
    expect(parse('smartlead', withValues('smartlead_email_reply', { 'reply_message.time': '05/03/2026 10:12' }))).toEqual(
      invalid('reply_message.time: not a timestamp (ISO 8601 or unix time)'),
    );
  });
});

describe('emailbison', () => {
  it('a reply without any prospect address', () => {
    const body = without('emailbison_lead_replied', 'data.reply.from_email_address', 'data.lead.email');
    expect(parse('emailbison', body)).toEqual(invalid('data.reply.from_email_address / data.lead.email: missing'));
  });

  it('wrong shapes, each named', () => {
    expect(parse('emailbison', { event: 'LEAD_REPLIED' })).toEqual(invalid('event: expected an object, got a string'));
    expect(parse('emailbison', { event: { type: 'LEAD_REPLIED' }, data: [] })).toEqual(invalid('data: expected an object, got an array'));
    expect(parse('emailbison', { event: { type: 'LEAD_REPLIED' }, data: {} })).toEqual(invalid('data.reply: missing'));
    expect(parse('emailbison', withValues('emailbison_lead_replied', { 'data.reply.id': [725], 'data.campaign': 'Nordic CFOs' }))).toEqual(
      invalid('data.reply.id: expected a string or a number, got an array', 'data.campaign: expected an object, got a string'),
    );
  });

  it('a reply without a body, a campaign or an id', () => {
    const body = without('emailbison_lead_replied', 'data.reply.text_body', 'data.reply.html_body', 'data.campaign', 'data.reply.id', 'data.reply.uuid');
    expect(parse('emailbison', body)).toEqual(
      invalid('data.reply.text_body / data.reply.html_body: missing', 'data.campaign.id / data.campaign.name: missing', 'data.reply.id / data.reply.uuid: missing'),
    );
  });
});

describe('generic', () => {
  it('everything wrong at once', () => {
    const body = { message_id: ' ', from_email: 'lee', to_email: 'alex', campaign: {}, received_at: '2026-03-05 09:30', text: ' ' };
    expect(parse('generic', body)).toEqual(
      invalid(
        'message_id: empty',
        'from_email: not an email address',
        'to_email: not an email address',
        'text / html: missing (at least one must be non-empty)',
        'campaign: needs an id or a name',
        'received_at: expected an ISO 8601 date-time with an offset (e.g. 2026-03-02T09:30:00Z)',
      ),
    );
  });

  it('a time without an offset is refused, not guessed', () => {
    expect(parse('generic', withValues('generic_reply', { received_at: '2026-03-05T09:30:00' }))).toEqual(
      invalid('received_at: expected an ISO 8601 date-time with an offset (e.g. 2026-03-02T09:30:00Z)'),
    );
  });

  it('wrong types, each named', () => {
    expect(parse('generic', { message_id: {}, from_email: 5, campaign: 'Q1', text: 7 })).toEqual(
      invalid(
        'message_id: expected a string or a number, got an object',
        'from_email: expected a string, got a number',
        'text: expected a string, got a number',
        'campaign: expected an object, got a string',
      ),
    );
  });

  it('a missing address', () => {
    expect(parse('generic', without('generic_reply', 'from_email'))).toEqual(invalid('from_email: missing'));
    expect(parse('generic', withValues('generic_reply', { from_email: '' }))).toEqual(invalid('from_email: missing'));
  });

  it('refuses what the providers’ formats would ignore: a generic body is always a reply', () => {
    expect(parse('generic', fixture('instantly_email_opened')).kind).toBe('invalid');
  });
});
