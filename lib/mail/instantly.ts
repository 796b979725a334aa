import { InstantlyClient, type InstantlyClientOptions } from '../providers/instantly/client';
import type { MailProvider } from './port';
import { notSent, refText, textToHtml, toolFailure } from './sending_tool';

/**
 * Answers through Instantly's POST /api/v2/emails/reply, in the thread of the email the prospect sent. What that
 * needs comes from the Instantly inbound webhook (provider_ref, docs/sending_providers.md): `reply_to_uuid` (the
 * webhook's `email_id`: Instantly's id of the prospect's email) and `eaccount` (the webhook's `email_account`, else
 * the mailbox the prospect wrote to). Without an email id no call is made: Instantly cannot answer a message it does not know.
 */
export function createInstantlyProvider(opts: InstantlyClientOptions): MailProvider {
  const client = new InstantlyClient(opts);
  return {
    kind: 'instantly',
    transactional: false,
    async send(_tx, m) {
      // The inbound adapter stores it under the API's own name; `email_id` (the webhook's name) is read too.
      const emailId = refText(m.providerRef, 'reply_to_uuid') ?? refText(m.providerRef, 'email_id');
      if (!emailId) {
        return notSent('Instantly cannot answer in-thread: the reply carries no Instantly email id (it did not arrive through an Instantly inbound source)');
      }
      const eaccount = refText(m.providerRef, 'eaccount') ?? m.fromEmail;
      if (!eaccount) {
        return notSent('Instantly cannot answer in-thread: the reply does not say which Instantly sending account the prospect wrote to (eaccount)');
      }
      try {
        await client.replyToEmail({
          eaccount,
          reply_to_uuid: emailId,
          // Instantly requires a subject; a prospect's message without one is answered "Re:" as mail clients do.
          subject: m.subject ?? 'Re:',
          body: { text: m.body, html: textToHtml(m.body) },
        });
        return { ok: true };
      } catch (err) {
        return toolFailure(err);
      }
    },
  };
}
