// What every inbound adapter (Instantly, Smartlead, EmailBison, generic) turns a sending tool's reply webhook into:
// one prospect reply, in the shape the ingestion verb takes. Provider payloads differ; this does not.

/** One prospect reply as delivered by a sending tool, before classification and lead aggregation. */
export type NormalizedInbound = {
  /** The provider's unique id of this reply message: the de-duplication key, unique per inbound source. */
  message_id: string;
  /** The RFC 5322 Message-ID of the prospect's mail when the provider gives it (we answer "In-Reply-To" it). */
  rfc_message_id?: string | null;
  /** The Message-ID the prospect's mail answered (our campaign mail), when known. */
  in_reply_to?: string | null;
  /** The prospect's References header (space-separated Message-IDs), when known. */
  references?: string | null;
  from_email: string;
  from_name?: string | null;
  /** The mailbox the prospect wrote to (our sending account): the reply goes out from it. */
  to_email?: string | null;
  subject?: string | null;
  /** Plain-text body, HTML body, or both; at least one is non-empty. */
  text?: string | null;
  html?: string | null;
  /** ISO 8601 with offset; absent = the time it reached us. */
  received_at?: string | null;
  /** The sending tool's campaign: matched by id (campaigns.provider_campaign_id), else by or created under its name. */
  campaign: { id?: string | null; name?: string | null };
  /**
   * What this provider's own reply API needs to answer in the prospect's thread (Instantly: the email's uuid and
   * the sending account; Smartlead: the campaign id, email_stats_id, the reply's message id and time). Opaque to
   * everything but that provider's sending adapter.
   */
  provider_ref?: Record<string, string | number | null>;
};

export type InboundProvider = 'instantly' | 'smartlead' | 'emailbison' | 'generic';

/**
 * An adapter's verdict on one webhook body: a reply to ingest, an event that is not a reply (acknowledged and
 * dropped, so the tool does not retry it), or a body that is not what the provider documents (each problem one
 * sentence naming the field).
 */
export type AdapterResult =
  | { kind: 'reply'; reply: NormalizedInbound }
  | { kind: 'ignored'; reason: string }
  | { kind: 'invalid'; problems: string[] };

export type InboundAdapter = {
  provider: InboundProvider;
  parse(payload: unknown): AdapterResult;
};
