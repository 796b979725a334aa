import { isSmartleadCampaignId, SmartleadClient, type SmartleadClientOptions } from '../providers/smartlead/client';
import type { MailProvider } from './port';
import { notSent, refText, textToHtml, toolFailure } from './sending_tool';

/**
 * Answers through Smartlead's POST /campaigns/{campaign_id}/reply-email-thread, in the thread of the campaign email
 * the prospect answered. From the Smartlead inbound webhook (provider_ref, docs/sending_providers.md): `campaign_id`
 * (else the campaign's provider_campaign_id, when that campaign is a Smartlead one) and `email_stats_id` are
 * required, and the campaign id must be a whole number (it goes into the path); `reply_message_id`,
 * `reply_email_time` and `reply_email_body` describe the prospect's message and fall back to its Message-ID,
 * received time and body as we stored them.
 */
export function createSmartleadProvider(opts: SmartleadClientOptions): MailProvider {
  const client = new SmartleadClient(opts);
  return {
    kind: 'smartlead',
    transactional: false,
    async send(_tx, m) {
      const ref = m.providerRef;
      const statsId = refText(ref, 'email_stats_id');
      if (!statsId) {
        return notSent('Smartlead cannot answer in-thread: the reply carries no Smartlead email_stats_id (it did not arrive through a Smartlead inbound source)');
      }
      // Another tool's id of the campaign is no Smartlead campaign id, even when it looks like one.
      const campaignId = refText(ref, 'campaign_id') ?? (m.providerCampaignProvider === 'smartlead' ? m.providerCampaignId : null);
      if (!campaignId) {
        return notSent('Smartlead cannot answer in-thread: neither the reply nor its campaign carries a Smartlead campaign id');
      }
      if (!isSmartleadCampaignId(campaignId)) {
        return notSent('Smartlead cannot answer in-thread: the campaign id it carries is not a Smartlead campaign id (a whole number)');
      }
      const replyMessageId = refText(ref, 'reply_message_id') ?? m.inReplyTo;
      try {
        await client.replyToThread(campaignId, {
          email_stats_id: statsId,
          email_body: textToHtml(m.body),
          ...(replyMessageId ? { reply_message_id: replyMessageId } : {}),
          reply_email_time: refText(ref, 'reply_email_time') ?? m.receivedAt,
          reply_email_body: refText(ref, 'reply_email_body') ?? m.originalBody,
          to_email: m.toEmail,
        });
        return { ok: true };
      } catch (err) {
        return toolFailure(err);
      }
    },
  };
}
