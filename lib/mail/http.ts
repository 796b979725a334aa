import { checkOutboundUrl, type Resolver } from '../net/ssrf';
import { failedBeforeSending, statusMayHaveActed } from '../providers/request';
import { deliverOnce } from '../webhooks/deliver';
import { signDelivery } from '../webhooks/signing';
import type { MailProvider, OutgoingMessage } from './port';

export const PROVIDER_TIMEOUT_MS = 10_000;

export type HttpProviderOptions = {
  url: string;
  /** A `whsec_` secret: the request is signed exactly like a webhook delivery. Null sends it unsigned. */
  secret: string | null;
  allowPrivate: boolean;
  resolveHost?: Resolver;
  timeoutMs?: number;
};

/**
 * What the organization's sending service gets: enough to answer in the prospect's own thread (subject "Re: …",
 * In-Reply-To/References, the mailbox the prospect wrote to). A field we do not know is null, never absent.
 */
export function httpPayload(m: OutgoingMessage) {
  return {
    reply_id: m.replyId,
    to_email: m.toEmail,
    body: m.body,
    subject: m.subject,
    in_reply_to: m.inReplyTo,
    references: m.references,
    campaign_id: m.campaignId,
    provider_campaign_id: m.providerCampaignId,
    from_email: m.fromEmail,
  };
}

/**
 * POSTs `httpPayload(message)` to the organization's sending service. The URL is checked against the SSRF policy
 * again at every send (DNS may have changed since it was configured), redirects are not followed, and anything
 * but a 2xx within the timeout is a provider failure: `not_sent` when the service refused it (4xx) or could not be
 * reached, `unknown` when it may have sent it anyway (timeout, broken connection, 5xx, redirect). The event id
 * lets a service deduplicate, but we cannot count on every service doing so.
 */
export function createHttpProvider(opts: HttpProviderOptions): MailProvider {
  return {
    kind: 'http',
    transactional: false,
    async send(_tx, m) {
      const checked = await checkOutboundUrl(opts.url, { allowPrivate: opts.allowPrivate, resolve: opts.resolveHost });
      if (!checked.ok) return { ok: false, error: `provider URL refused: ${checked.reason}`, outcome: 'not_sent' };
      const body = JSON.stringify(httpPayload(m));
      // One id per reply: a provider that deduplicates on it never sends one reply twice, even across our retries.
      const eventId = `msg_${m.replyId}`;
      const headers = opts.secret
        ? await signDelivery({ secret: opts.secret, eventId, body })
        : { 'Content-Type': 'application/json', 'X-Service-Event-Id': eventId };
      // deliverOnce reports a network error as text; the error itself tells whether the connection was ever made.
      let neverConnected = false;
      const watchedFetch: typeof fetch = (input, init) =>
        fetch(input, init).catch((err: unknown) => {
          neverConnected = failedBeforeSending(err);
          throw err;
        });
      const r = await deliverOnce({ url: checked.url.href, headers, body, timeoutMs: opts.timeoutMs ?? PROVIDER_TIMEOUT_MS, fetch: watchedFetch });
      if (r.ok) return { ok: true };
      const snippet = r.bodySnippet ? `: ${r.bodySnippet.slice(0, 200)}` : '';
      const mayHaveActed = r.status !== null ? statusMayHaveActed(r.status) : !neverConnected;
      return { ok: false, error: `${r.error ?? 'request failed'}${snippet}`, outcome: mayHaveActed ? 'unknown' : 'not_sent' };
    },
  };
}
