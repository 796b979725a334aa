// Smartlead webhooks: one flat JSON object per event, `event_type` says which
// (https://help.smartlead.ai/Webhook-Guide-Updated-4d0ae6b2fa6a4db1b4c1ead824a86866 and
// https://api.smartlead.ai/reference/email-reply-webhooks). docs/inbound_providers.md maps every field we read.
import { z } from 'zod';
import type { AdapterResult, InboundAdapter } from '../types';
import { addressIn, body, idString, optionalId, optionalText, optionalTime, rfcMessageId, trimmed } from './fields';
import { eventName, ignored, invalid, objectBody, parseWith, Problems, reply } from './verdicts';

// EMAIL_REPLY is the documented name; EMAIL_REPLIED is what api.smartlead.ai's newer pages call the same event.
const REPLY_EVENTS = new Set(['EMAIL_REPLY', 'EMAIL_REPLIED']);
// A Map, not an object literal: an event named "constructor" must not find Object's.
const IGNORED_BECAUSE = new Map<string, string>([
  // A mail to a campaign mailbox that matches no campaign email: anything, not necessarily a prospect.
  ['UNTRACKED_REPLIES', 'Smartlead event "UNTRACKED_REPLIES" is a mail that belongs to no campaign, not a prospect\'s reply.'],
]);

const Event = z.looseObject({ event_type: z.string() });

const Message = z.looseObject({ message_id: optionalId, html: optionalText, text: optionalText, time: optionalTime }).nullish();

const ReplyEvent = z.looseObject({
  event_type: z.string(),
  campaign_id: optionalId,
  campaign_name: optionalText,
  stats_id: optionalId,
  sl_lead_email: optionalText,
  from_email: optionalText,
  to_email: optionalText,
  to_name: optionalText,
  subject: optionalText,
  time_replied: optionalTime,
  event_timestamp: optionalTime,
  reply_message: Message,
  sent_message: Message,
  // Deprecated by Smartlead in favour of reply_message.*, still sent and still documented.
  message_id: optionalId,
  reply_body: optionalText,
  preview_text: optionalText,
  leadCorrespondence: z.looseObject({ targetLeadEmail: optionalText, replyReceivedFrom: optionalText }).nullish(),
});

export const smartleadAdapter: InboundAdapter = {
  provider: 'smartlead',
  parse(payload: unknown): AdapterResult {
    const object = objectBody(payload);
    if (!object.ok) return object.verdict;
    const event = parseWith(Event, object.value);
    if (!event.ok) return event.verdict;
    const type = event.value.event_type.trim().toUpperCase();
    if (!type) return invalid(['event_type: empty']);
    if (!REPLY_EVENTS.has(type)) return ignored(IGNORED_BECAUSE.get(type) ?? `Smartlead event ${eventName(type)} is not a reply.`);
    const parsed = parseWith(ReplyEvent, object.value);
    return parsed.ok ? toReply(parsed.value) : parsed.verdict;
  },
};

function toReply(e: z.output<typeof ReplyEvent>): AdapterResult {
  const problems = new Problems();
  // The names follow our campaign mail, not the reply: from_email is OUR mailbox ("the sender mailbox") and
  // to_email/to_name the lead. The prospect who actually wrote is leadCorrespondence.replyReceivedFrom (a colleague
  // can answer for the lead); sl_lead_email is the lead the campaign targeted.
  const ourMailbox = problems.optionalEmail('from_email', e.from_email);
  const rm = e.reply_message;
  const candidates: [string, string | null | undefined][] = [
    ['leadCorrespondence.replyReceivedFrom', e.leadCorrespondence?.replyReceivedFrom],
    ['sl_lead_email', e.sl_lead_email],
    ['to_email', e.to_email],
  ];
  // Never our own mailbox, whatever field it turns up in.
  const prospects = candidates.filter(([, value]) => ourMailbox === null || addressIn(value) !== ourMailbox);
  const fromEmail = prospects.length ? problems.requiredEmail(...prospects) : problems.add('sl_lead_email: is our own mailbox (from_email)');
  // to_name names whoever to_email is; it is the prospect's name only when to_email is the prospect.
  const fromName = fromEmail && addressIn(e.to_email) === fromEmail ? trimmed(e.to_name) : null;

  const receivedAt = problems.optionalTime(['reply_message.time', rm?.time], ['time_replied', e.time_replied], ['event_timestamp', e.event_timestamp]);

  const text = body(rm?.text) ?? body(e.preview_text);
  const html = body(rm?.html) ?? body(e.reply_body);
  if (!text && !html) problems.add('reply_message.text / reply_message.html: missing (and no preview_text or reply_body)');

  const campaign = { id: idString(e.campaign_id), name: trimmed(e.campaign_name) };
  if (!campaign.id && !campaign.name) problems.add('campaign_id / campaign_name: missing');

  // The reply's own Message-ID identifies it across retries; stats_id (our campaign mail) plus the reply's time is
  // the fallback for a payload without one.
  const replyMessageId = idString(rm?.message_id) ?? idString(e.message_id);
  const statsId = idString(e.stats_id);
  const replyTime = idString(rm?.time) ?? idString(e.time_replied);
  const messageId = replyMessageId ?? (statsId && replyTime ? `${statsId} ${replyTime}` : null);
  if (!messageId) problems.add('reply_message.message_id: missing (and no stats_id with a reply time)');

  if (problems.list.length || !fromEmail || !messageId) return invalid(problems.list);
  return reply({
    message_id: messageId,
    rfc_message_id: rfcMessageId(replyMessageId),
    // sent_message is the campaign mail this reply was matched to.
    in_reply_to: rfcMessageId(idString(e.sent_message?.message_id)),
    references: null,
    from_email: fromEmail,
    from_name: fromName,
    to_email: ourMailbox,
    subject: trimmed(e.subject),
    text,
    html,
    ...(receivedAt ? { received_at: receivedAt } : {}),
    campaign,
    // POST /api/v1/campaigns/{campaign_id}/reply-email-thread takes email_stats_id, reply_message_id and
    // reply_email_time (as Smartlead wrote it) besides the body we write; reply_email_body is the stored reply.
    provider_ref: { campaign_id: campaign.id, email_stats_id: statsId, reply_message_id: replyMessageId, reply_email_time: replyTime },
  });
}
