// Smartlead API v1 (https://api.smartlead.ai): the API key travels as the `api_key` query parameter (the API has
// no header auth), JSON bodies. Field names are the API's own. Sources and decisions: docs/sending_providers.md.
import { apiUrl, ProviderApiError, redact, requestJson } from '../request';

/** Production base (host and version path); SMARTLEAD_API_URL overrides it (tests: test/infra/fake_smartlead.ts). */
export const SMARTLEAD_API_URL = 'https://server.smartlead.ai/api/v1';
export const SMARTLEAD_TIMEOUT_MS = 10_000;
/**
 * Leads per POST /campaigns/{id}/leads. The current reference says at most 400, the earlier one 100; 100 is
 * accepted under both, so a batch is never refused for its size.
 */
export const SMARTLEAD_MAX_LEADS_PER_REQUEST = 100;

/**
 * Smartlead campaign ids are whole numbers. The id goes into the request path and may come from a webhook
 * (provider_ref.campaign_id), so anything else is refused before a request is built: `..` or `/` can never steer
 * the call to another endpoint.
 */
export const isSmartleadCampaignId = (id: string | number): boolean => /^\d+$/.test(String(id));

export type SmartleadClientOptions = { apiKey: string; baseUrl?: string; timeoutMs?: number };

/** POST /campaigns/{campaign_id}/reply-email-thread: answers a lead in the thread of one campaign email. */
export type SmartleadReplyInput = {
  /** The sent email's stats id (the EMAIL_REPLY webhook's `stats_id`). Required. */
  email_stats_id: string;
  /** The answer, as HTML. Required. */
  email_body: string;
  /** The Message-ID of the message being answered (the webhook's `reply_message.message_id`). */
  reply_message_id?: string;
  /** When that message was sent (the webhook's `reply_message.time`), ISO 8601. */
  reply_email_time?: string;
  /** That message's body, quoted under the answer. */
  reply_email_body?: string;
  /** Defaults to the lead's email. */
  to_email?: string;
  to_first_name?: string;
  to_last_name?: string;
  cc?: string;
  bcc?: string;
  add_signature?: boolean;
  scheduled_time?: string;
};

/** The reference answers `{ success: true, message }`; the earlier one `{ ok: true, data: "success" }`. */
export type SmartleadReplyResult = { success?: boolean; ok?: boolean; message?: string; data?: unknown };

export type SmartleadLeadInput = {
  email: string;
  first_name?: string;
  last_name?: string;
  company_name?: string;
  phone_number?: string;
  website?: string;
  location?: string;
  linkedin_profile?: string;
  company_url?: string;
  /** Used as {{field}} in sequences. */
  custom_fields?: Record<string, string>;
};

export type SmartleadAddLeadsInput = {
  lead_list: SmartleadLeadInput[];
  settings?: {
    ignore_global_block_list?: boolean;
    ignore_unsubscribe_list?: boolean;
    ignore_community_bounce_list?: boolean;
    ignore_duplicate_leads_in_other_campaign?: boolean;
  };
};

/** Counts as documented; which count means "added" differs between the two references, so all are kept. */
export type SmartleadAddLeadsResult = {
  ok?: boolean;
  upload_count?: number;
  total_leads?: number;
  already_added_to_campaign?: number;
  duplicate_count?: number;
  invalid_email_count?: number;
  unsubscribed_leads?: unknown;
  is_lead_limit_exhausted?: boolean;
  lead_import_stopped_count?: number;
  added_count?: number;
  skipped_count?: number;
  [field: string]: unknown;
};

export class SmartleadClient {
  private readonly apiKey: string;
  private readonly baseUrl: string;
  private readonly timeoutMs: number;

  constructor(opts: SmartleadClientOptions) {
    if (!opts.apiKey) throw new Error('SmartleadClient: apiKey is required');
    this.apiKey = opts.apiKey;
    this.baseUrl = opts.baseUrl ?? SMARTLEAD_API_URL;
    this.timeoutMs = opts.timeoutMs ?? SMARTLEAD_TIMEOUT_MS;
  }

  /** Sends an answer in the thread of `email_stats_id` in campaign `campaignId`. One attempt. */
  async replyToThread(campaignId: string | number, input: SmartleadReplyInput): Promise<SmartleadReplyResult> {
    const result = await this.post<SmartleadReplyResult>(`${campaignPath(campaignId)}/reply-email-thread`, input);
    this.refuseExplicitNo(result);
    return result;
  }

  /** Adds up to SMARTLEAD_MAX_LEADS_PER_REQUEST leads to a campaign (block lists and duplicates checked by Smartlead). */
  async addLeadsToCampaign(campaignId: string | number, input: SmartleadAddLeadsInput): Promise<SmartleadAddLeadsResult> {
    const n = input.lead_list.length;
    if (n < 1 || n > SMARTLEAD_MAX_LEADS_PER_REQUEST) {
      throw new RangeError(`Smartlead adds 1 to ${SMARTLEAD_MAX_LEADS_PER_REQUEST} leads per request here; got ${n}`);
    }
    const result = await this.post<SmartleadAddLeadsResult>(`${campaignPath(campaignId)}/leads`, input);
    this.refuseExplicitNo(result);
    return result;
  }

  private post<T>(path: string, body: unknown): Promise<T> {
    return requestJson<T>({
      api: 'Smartlead API',
      method: 'POST',
      url: apiUrl(this.baseUrl, path, { api_key: this.apiKey }),
      headers: {},
      body,
      timeoutMs: this.timeoutMs,
      secret: this.apiKey,
    });
  }

  /** A 2xx whose body says `ok: false` / `success: false` did not do it. */
  private refuseExplicitNo(result: unknown) {
    const r = result as { ok?: unknown; success?: unknown; message?: unknown; error?: unknown } | null;
    if (r && typeof r === 'object' && (r.ok === false || r.success === false)) {
      const why = typeof r.error === 'string' ? r.error : typeof r.message === 'string' ? r.message : 'no reason given';
      const reason = redact(why, this.apiKey).slice(0, 200);
      throw new ProviderApiError(`Smartlead API answered 2xx but refused: ${reason}`, 'Smartlead API', 'rejected', 200, null, reason);
    }
  }
}

/** `/campaigns/{id}`; a RangeError (no request) for an id that is not a whole number. */
function campaignPath(campaignId: string | number): string {
  if (!isSmartleadCampaignId(campaignId)) throw new RangeError('Smartlead campaign ids are whole numbers; refused a malformed one');
  return `/campaigns/${String(campaignId)}`;
}
