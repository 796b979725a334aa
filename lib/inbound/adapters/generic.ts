// Our own format, for any tool that can POST JSON (Zapier, Make, n8n, a custom mailbox reader). Unlike the
// providers' formats it is ours to define, so it is checked strictly: every body is one reply, and a body that
// cannot be ingested as it stands is refused with the fields to fix. Unknown fields are allowed, so a tool that
// adds its own does not need a filter step.
import { z } from 'zod';
import type { AdapterResult, InboundAdapter } from '../types';
import { body, idString, isoTime, optionalId, optionalText, rfcMessageId, trimmed } from './fields';
import { invalid, objectBody, parseWith, Problems, reply } from './verdicts';

export const GenericReply = z.looseObject({
  message_id: z.union([z.string(), z.number()], { error: 'expected a string or a number' }),
  from_email: z.string(),
  from_name: optionalText,
  to_email: optionalText,
  subject: optionalText,
  text: optionalText,
  html: optionalText,
  received_at: optionalText,
  in_reply_to: optionalText,
  references: optionalText,
  campaign: z.looseObject({ id: optionalId, name: optionalText }),
});

const DATE_TIME_WITH_OFFSET = z.iso.datetime({ offset: true });

export const genericAdapter: InboundAdapter = {
  provider: 'generic',
  parse(payload: unknown): AdapterResult {
    const object = objectBody(payload);
    if (!object.ok) return object.verdict;
    const parsed = parseWith(GenericReply, object.value);
    return parsed.ok ? toReply(parsed.value) : parsed.verdict;
  },
};

function toReply(g: z.output<typeof GenericReply>): AdapterResult {
  const problems = new Problems();
  const messageId = idString(g.message_id) ?? problems.add('message_id: empty');
  const fromEmail = problems.requiredEmail(['from_email', g.from_email]);
  const toEmail = problems.optionalEmail('to_email', g.to_email);

  const text = body(g.text);
  const html = body(g.html);
  if (!text && !html) problems.add('text / html: missing (at least one must be non-empty)');

  const campaign = { id: idString(g.campaign.id), name: trimmed(g.campaign.name) };
  if (!campaign.id && !campaign.name) problems.add('campaign: needs an id or a name');

  // A time without an offset is ambiguous for a format we define, so it is refused rather than guessed.
  const given = trimmed(g.received_at);
  const receivedAt = given && DATE_TIME_WITH_OFFSET.safeParse(given).success ? isoTime(given) : null;
  if (given && !receivedAt) problems.add('received_at: expected an ISO 8601 date-time with an offset (e.g. 2026-03-02T09:30:00Z)');

  if (problems.list.length || !messageId || !fromEmail) return invalid(problems.list);
  return reply({
    message_id: messageId,
    rfc_message_id: rfcMessageId(messageId),
    in_reply_to: trimmed(g.in_reply_to),
    references: trimmed(g.references),
    from_email: fromEmail,
    from_name: trimmed(g.from_name),
    to_email: toEmail,
    subject: trimmed(g.subject),
    text,
    html,
    ...(receivedAt ? { received_at: receivedAt } : {}),
    campaign,
  });
}
