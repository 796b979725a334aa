// EmailBison webhooks: `{ event: { type, … }, data: { reply, lead, campaign, sender_email, scheduled_email, … } }`
// (https://docs.emailbison.com/webhooks/overview; the payload fields are shown in-app and by the API's
// GET /api/webhook-events/sample-payload). docs/inbound_providers.md maps every field we read.
import { z } from 'zod';
import type { AdapterResult, InboundAdapter } from '../types';
import { addressIn, body, idString, optionalId, optionalText, optionalTime, rfcMessageId, trimmed } from './fields';
import { eventName, ignored, invalid, objectBody, parseWith, Problems, reply } from './verdicts';

// A Map, not an object literal: an event named "constructor" must not find Object's.
const IGNORED_BECAUSE = new Map<string, string>([
  // Fires when a reply already delivered as LEAD_REPLIED is marked interested: a label, not a new message.
  ['LEAD_INTERESTED', 'EmailBison event "LEAD_INTERESTED" labels a reply already delivered as LEAD_REPLIED.'],
  // A mail that matches no campaign email: anything, not necessarily a prospect.
  ['UNTRACKED_REPLY_RECEIVED', 'EmailBison event "UNTRACKED_REPLY_RECEIVED" is a mail that belongs to no campaign, not a prospect\'s reply.'],
]);

const Event = z.looseObject({ event: z.looseObject({ type: z.string() }) });

const Reply = z.looseObject({
  id: optionalId,
  uuid: optionalId,
  email_subject: optionalText,
  from_name: optionalText,
  from_email_address: optionalText,
  primary_to_email_address: optionalText,
  text_body: optionalText,
  html_body: optionalText,
  date_received: optionalTime,
  created_at: optionalTime,
  raw_message_id: optionalText,
  sender_email_id: optionalId,
});

const LeadReplied = z.looseObject({
  event: z.looseObject({ type: z.string() }),
  data: z.looseObject({
    reply: Reply,
    lead: z.looseObject({ id: optionalId, email: optionalText, first_name: optionalText, last_name: optionalText }).nullish(),
    campaign: z.looseObject({ id: optionalId, name: optionalText }).nullish(),
    sender_email: z.looseObject({ id: optionalId, email: optionalText }).nullish(),
    scheduled_email: z.looseObject({ id: optionalId, raw_message_id: optionalText }).nullish(),
  }),
});

export const emailbisonAdapter: InboundAdapter = {
  provider: 'emailbison',
  parse(payload: unknown): AdapterResult {
    const object = objectBody(payload);
    if (!object.ok) return object.verdict;
    const event = parseWith(Event, object.value);
    if (!event.ok) return event.verdict;
    // The payload says LEAD_REPLIED; the API's event-type list says lead_replied.
    const type = event.value.event.type.trim().toUpperCase();
    if (!type) return invalid(['event.type: empty']);
    if (type !== 'LEAD_REPLIED') return ignored(IGNORED_BECAUSE.get(type) ?? `EmailBison event ${eventName(type)} is not a reply.`);
    const parsed = parseWith(LeadReplied, object.value);
    return parsed.ok ? toReply(parsed.value.data) : parsed.verdict;
  },
};

function toReply(d: z.output<typeof LeadReplied>['data']): AdapterResult {
  const problems = new Problems();
  const r = d.reply;
  const fromEmail = problems.requiredEmail(['data.reply.from_email_address', r.from_email_address], ['data.lead.email', d.lead?.email]);
  const toEmail = problems.optionalEmail('data.reply.primary_to_email_address', r.primary_to_email_address) ?? problems.optionalEmail('data.sender_email.email', d.sender_email?.email);
  const receivedAt = problems.optionalTime(['data.reply.date_received', r.date_received], ['data.reply.created_at', r.created_at]);
  const leadName = [trimmed(d.lead?.first_name), trimmed(d.lead?.last_name)].filter(Boolean).join(' ') || null;
  // The lead's name describes the lead, not a colleague answering from another address.
  const fromName = trimmed(r.from_name) ?? (fromEmail && fromEmail === addressIn(d.lead?.email) ? leadName : null);

  const text = body(r.text_body);
  const html = body(r.html_body);
  if (!text && !html) problems.add('data.reply.text_body / data.reply.html_body: missing');

  const campaign = { id: idString(d.campaign?.id), name: trimmed(d.campaign?.name) };
  if (!campaign.id && !campaign.name) problems.add('data.campaign.id / data.campaign.name: missing');

  // The reply's id is its handle in EmailBison's API (GET /api/replies/{id}); the uuid stands in when it is absent.
  const replyId = idString(r.id);
  const messageId = replyId ?? idString(r.uuid);
  if (!messageId) problems.add('data.reply.id / data.reply.uuid: missing');

  if (problems.list.length || !fromEmail || !messageId) return invalid(problems.list);
  return reply({
    message_id: messageId,
    rfc_message_id: rfcMessageId(r.raw_message_id),
    // scheduled_email is the campaign mail the reply was matched to.
    in_reply_to: rfcMessageId(d.scheduled_email?.raw_message_id),
    references: null,
    from_email: fromEmail,
    from_name: fromName,
    to_email: toEmail,
    subject: trimmed(r.email_subject),
    text,
    html,
    ...(receivedAt ? { received_at: receivedAt } : {}),
    campaign,
    // Answering through EmailBison (POST /api/replies/{reply_id}/reply) needs the reply and the sending account.
    provider_ref: {
      reply_id: replyId,
      sender_email_id: idString(d.sender_email?.id) ?? idString(r.sender_email_id),
      lead_id: idString(d.lead?.id),
      scheduled_email_id: idString(d.scheduled_email?.id),
    },
  });
}
