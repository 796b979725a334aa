// Instantly API v2 (https://developer.instantly.ai): Bearer API key, JSON bodies. Field names are the API's own,
// so a reader can hold this file against the reference. Sources and decisions: docs/sending_providers.md.
import { apiUrl, requestJson } from '../request';

/** Production host; INSTANTLY_API_URL overrides it (tests point it at test/infra/fake_instantly.ts). */
export const INSTANTLY_API_URL = 'https://api.instantly.ai';
export const INSTANTLY_TIMEOUT_MS = 10_000;
/** POST /api/v2/leads/add takes 1 to 1000 leads per request. */
export const INSTANTLY_MAX_LEADS_PER_REQUEST = 1000;

export type InstantlyClientOptions = { apiKey: string; baseUrl?: string; timeoutMs?: number };

/** POST /api/v2/emails/reply: answers an existing email (its `id` = the webhook's `email_id`) in its thread. */
export type InstantlyReplyInput = {
  /** The connected sending account the answer goes out from (the webhook's `email_account`). */
  eaccount: string;
  /** The id of the email being answered. */
  reply_to_uuid: string;
  subject: string;
  /** Either or both. */
  body: { text?: string; html?: string };
  cc_address_email_list?: string;
  bcc_address_email_list?: string;
  reminder_ts?: string;
  assigned_to?: string;
};

/** The Email the reply endpoint answers with (the fields we read; Instantly sends more). */
export type InstantlyEmail = {
  id: string;
  message_id?: string;
  thread_id?: string;
  subject?: string;
  eaccount?: string;
  timestamp_created?: string;
  timestamp_email?: string;
  to_address_email_list?: string;
  [field: string]: unknown;
};

export type InstantlyLeadInput = {
  email: string;
  first_name?: string | null;
  last_name?: string | null;
  company_name?: string | null;
  website?: string | null;
  phone?: string | null;
  personalization?: string | null;
  /** Values must be string, number, boolean or null (no objects or arrays). */
  custom_variables?: Record<string, string | number | boolean | null>;
};

/** POST /api/v2/leads/add to a campaign (the endpoint also takes a list_id instead; we push to campaigns). */
export type InstantlyAddLeadsInput = {
  campaign_id: string;
  leads: InstantlyLeadInput[];
  blocklist_id?: string | null;
  assigned_to?: string;
  verify_leads_on_import?: boolean;
  /** Skips a lead that exists anywhere in the workspace; overrides the other skip flags. */
  skip_if_in_workspace?: boolean;
  skip_if_in_campaign?: boolean;
  skip_if_in_list?: boolean;
};

export type InstantlyAddLeadsResult = {
  status: string;
  total_sent: number;
  leads_uploaded: number;
  in_blocklist?: number;
  blocklist_used?: string | null;
  duplicated_leads?: number;
  skipped_count?: number;
  invalid_email_count?: number;
  incomplete_count?: number;
  duplicate_email_count?: number;
  remaining_in_plan?: number;
  created_leads?: Array<{ id: string; email: string; index: number }>;
};

export class InstantlyClient {
  private readonly apiKey: string;
  private readonly baseUrl: string;
  private readonly timeoutMs: number;

  constructor(opts: InstantlyClientOptions) {
    if (!opts.apiKey) throw new Error('InstantlyClient: apiKey is required');
    this.apiKey = opts.apiKey;
    this.baseUrl = opts.baseUrl ?? INSTANTLY_API_URL;
    this.timeoutMs = opts.timeoutMs ?? INSTANTLY_TIMEOUT_MS;
  }

  /** Sends `input.body` as a reply in the thread of email `reply_to_uuid`. One attempt (see lib/providers/request.ts). */
  replyToEmail(input: InstantlyReplyInput): Promise<InstantlyEmail> {
    return this.post<InstantlyEmail>('/api/v2/emails/reply', input);
  }

  /** Adds up to 1000 leads to a campaign; Instantly validates, checks blocklists and skips existing leads. */
  addLeadsToCampaign(input: InstantlyAddLeadsInput): Promise<InstantlyAddLeadsResult> {
    const n = input.leads.length;
    if (n < 1 || n > INSTANTLY_MAX_LEADS_PER_REQUEST) {
      throw new RangeError(`Instantly adds 1 to ${INSTANTLY_MAX_LEADS_PER_REQUEST} leads per request; got ${n}`);
    }
    return this.post<InstantlyAddLeadsResult>('/api/v2/leads/add', input);
  }

  private post<T>(path: string, body: unknown): Promise<T> {
    return requestJson<T>({
      api: 'Instantly API',
      method: 'POST',
      url: apiUrl(this.baseUrl, path),
      headers: { Authorization: `Bearer ${this.apiKey}` },
      body,
      timeoutMs: this.timeoutMs,
      secret: this.apiKey,
    });
  }
}
