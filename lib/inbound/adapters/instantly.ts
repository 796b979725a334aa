// Instantly (API v2) webhooks: one flat JSON object per event, `event_type` says which
// (https://developer.instantly.ai/guides/webhook-events). docs/inbound_providers.md maps every field we read.
import { z } from 'zod';
import type { AdapterResult, InboundAdapter } from '../types';
import { body, idString, optionalId, optionalText, optionalTime, trimmed } from './fields';
import { eventName, ignored, invalid, objectBody, parseWith, Problems, reply } from './verdicts';

// An auto-reply is still the prospect's mail (out of office, "left the company"): the classifier labels it `ooo`,
// and dropping it would hide a lead's status from the agency.
const REPLY_EVENTS = new Set(['reply_received', 'auto_reply_received']);

const Event = z.looseObject({ event_type: z.string() });

const ReplyEvent = z.looseObject({
  event_type: z.string(),
  timestamp: optionalTime,
  campaign_id: optionalId,
  campaign_name: optionalText,
  lead_email: optionalText,
  email_account: optionalText,
  email_id: optionalId,
  reply_subject: optionalText,
  reply_text: optionalText,
  reply_html: optionalText,
  reply_text_snippet: optionalText,
});

export const instantlyAdapter: InboundAdapter = {
  provider: 'instantly',
  parse(payload: unknown): AdapterResult {
    const object = objectBody(payload);
    if (!object.ok) return object.verdict;
    const event = parseWith(Event, object.value);
    if (!event.ok) return event.verdict;
    const type = event.value.event_type.trim().toLowerCase();
    if (!type) return invalid(['event_type: empty']);
    // Everything else (opens, sends, bounces, lead statuses, the workspace's custom labels) is not a reply.
    if (!REPLY_EVENTS.has(type)) return ignored(`Instantly event ${eventName(type)} is not a reply.`);
    const parsed = parseWith(ReplyEvent, object.value);
    return parsed.ok ? toReply(parsed.value) : parsed.verdict;
  },
};

function toReply(e: z.output<typeof ReplyEvent>): AdapterResult {
  const problems = new Problems();
  const fromEmail = problems.requiredEmail(['lead_email', e.lead_email]);
  const toEmail = problems.optionalEmail('email_account', e.email_account);
  const receivedAt = problems.optionalTime(['timestamp', e.timestamp]);

  const html = body(e.reply_html);
  // The snippet is a short preview: used only when neither full body came, rather than refusing the reply.
  const text = body(e.reply_text) ?? (html ? null : body(e.reply_text_snippet));
  if (!text && !html) problems.add('reply_text: missing (reply_text, reply_html and reply_text_snippet are all empty)');

  const campaign = { id: idString(e.campaign_id), name: trimmed(e.campaign_name) };
  if (!campaign.id && !campaign.name) problems.add('campaign_id / campaign_name: missing');

  // email_id is the reply's uuid in Instantly (the reply API's reply_to_uuid). Without it, the lead and the event
  // time identify the reply: Instantly retries a delivery with the same stored payload, so that key is stable.
  const emailId = idString(e.email_id);
  const messageId = emailId ?? (fromEmail && receivedAt ? `${fromEmail} ${receivedAt}` : null);
  if (!messageId) problems.add('email_id: missing (and no timestamp to identify the reply by)');

  if (problems.list.length || !fromEmail || !messageId) return invalid(problems.list);
  return reply({
    message_id: messageId,
    // Instantly's webhook carries no RFC 5322 headers; its reply API threads by reply_to_uuid instead.
    rfc_message_id: null,
    in_reply_to: null,
    references: null,
    from_email: fromEmail,
    // The lead's name is among "additional lead data fields" whose keys Instantly does not document.
    from_name: null,
    to_email: toEmail,
    subject: trimmed(e.reply_subject),
    text,
    html,
    ...(receivedAt ? { received_at: receivedAt } : {}),
    campaign,
    // POST /api/v2/emails/reply needs reply_to_uuid and eaccount (plus the subject and body we write).
    provider_ref: { reply_to_uuid: emailId, eaccount: toEmail },
  });
}
