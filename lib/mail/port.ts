import type { Db } from '../db/types';

// The sending-provider port. One organization sends through one provider, configured by its owner
// (sending_providers row; no row = outbox): `outbox` records the message and sends nothing (embedded default),
// `http` POSTs it, signed, to the organization's own sending service; `instantly` and `smartlead` answer through
// that sending tool's own reply API, in the prospect's thread.

/** Everything a provider needs to answer the prospect in their own thread (lib/mail/message.ts builds it). */
export type OutgoingMessage = {
  orgId: string;
  replyId: string;
  toEmail: string;
  body: string;
  /** "Re: " + the prospect's subject (once), or null when the reply had no subject. */
  subject: string | null;
  /** The prospect's Message-ID: our answer's In-Reply-To. */
  inReplyTo: string | null;
  /** The thread's Message-IDs, oldest first, ending with the prospect's (space-separated), or null. */
  references: string | null;
  campaignId: string;
  providerCampaignId: string | null;
  /**
   * The sending tool that `providerCampaignId` belongs to (the campaign's `provider`): a tool's adapter uses that id
   * only when it is its own (two tools may both have a campaign 42).
   */
  providerCampaignProvider: string | null;
  /** The mailbox the prospect wrote to, when the sending tool told us: the answer goes out from it. */
  fromEmail: string | null;
  /** When the prospect's message was sent (as the tool reported it, else when it reached us), ISO 8601. */
  receivedAt: string;
  /** The prospect's message as received (its HTML when it had an HTML part): tools that quote it take it from here. */
  originalBody: string;
  /** What that sending tool's reply API needs (its ids of the message and account), from the inbound webhook. */
  providerRef: Record<string, string | number | null> | null;
};

/**
 * What a failed send means for the prospect. `not_sent`: the provider certainly did not take the message (we
 * refused before calling, or it answered 4xx, or the connection was never made). `unknown`: it may have been
 * delivered (a timeout, a connection broken after the request went out, a 5xx, a redirect); neither sending tool's
 * reply API has an idempotency key, so sending again could reach the prospect twice.
 */
export type SendFailureOutcome = 'not_sent' | 'unknown';

export type ProviderResult = { ok: true } | { ok: false; error: string; outcome: SendFailureOutcome };

export type ProviderKind = 'outbox' | 'http' | 'instantly' | 'smartlead';

export interface MailProvider {
  readonly kind: ProviderKind;
  /**
   * True when the "send" is a row written with the caller's transaction: it rolls back with it, so a send whose
   * transaction fails contacted nobody. An http call cannot be taken back once made.
   */
  readonly transactional: boolean;
  /**
   * Never throws for a provider-side failure (non-2xx, network, timeout, refused URL): that is `ok: false`, with
   * the outcome telling whether the message may have gone out anyway.
   */
  send(tx: Db, message: OutgoingMessage, now: Date): Promise<ProviderResult>;
}
