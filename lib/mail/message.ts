import type { findReplyForUpdate } from '../leads/find_reply';
import type { OutgoingMessage } from './port';

/** A reply with its lead and campaign, as the send path holds it under its row lock. */
type LockedReply = Awaited<ReturnType<typeof findReplyForUpdate>>;

/** "Re: " once: a subject that already starts with a reply prefix (Re:, RE:, AW:, SV:, …) keeps it. */
export function replySubject(subject: string | null): string | null {
  const s = subject?.trim();
  if (!s) return null;
  return /^(re|aw|sv|antw|r|rif|wg)\s*:/i.test(s) ? s : `Re: ${s}`;
}

/** The References header of our answer: the prospect's References (or In-Reply-To), then the prospect's own id. */
export function threadReferences(reply: { references: string | null; inReplyTo: string | null; rfcMessageId: string | null }): string | null {
  const ids = [...(reply.references ?? reply.inReplyTo ?? '').split(/\s+/), reply.rfcMessageId ?? ''].filter(Boolean);
  const unique = [...new Set(ids)];
  return unique.length ? unique.join(' ') : null;
}

/** The message a provider gets for an answer to this (locked) reply. */
export function outgoingMessage(orgId: string, locked: LockedReply, body: string): OutgoingMessage {
  const { reply, campaign } = locked;
  return {
    orgId,
    replyId: reply.id,
    toEmail: reply.fromEmail,
    body,
    subject: replySubject(reply.subject),
    inReplyTo: reply.rfcMessageId,
    references: threadReferences(reply),
    campaignId: campaign.id,
    providerCampaignId: campaign.providerCampaignId,
    providerCampaignProvider: campaign.provider,
    fromEmail: reply.toEmail,
    receivedAt: reply.receivedAt.toISOString(),
    originalBody: reply.bodyHtml ?? reply.body,
    providerRef: reply.providerRef,
  };
}
