// A local stand-in for the two Smartlead API v1 endpoints we call (api.smartlead.ai; docs/sending_providers.md):
// POST /api/v1/campaigns/{campaign_id}/reply-email-thread and POST /api/v1/campaigns/{campaign_id}/leads. It checks
// the `api_key` query parameter and the documented required fields, answers the documented success bodies, and
// records every request. Failure modes: fake_shared.ts.
import { isEmail, isNonEmptyString, startFakeApi, type FakeFailure, type RecordedRequest, type Reply } from './fake_shared';

export type FakeSmartlead = Awaited<ReturnType<typeof startFakeSmartlead>>;

const REPLY_PATH = /^\/api\/v1\/campaigns\/([^/]+)\/reply-email-thread$/;
const LEADS_PATH = /^\/api\/v1\/campaigns\/([^/]+)\/leads$/;
const REPLY_FIELDS: Record<string, 'string' | 'boolean' | 'array'> = {
  email_stats_id: 'string',
  email_body: 'string',
  reply_message_id: 'string',
  reply_email_time: 'string',
  reply_email_body: 'string',
  to_email: 'string',
  to_first_name: 'string',
  to_last_name: 'string',
  cc: 'string',
  bcc: 'string',
  add_signature: 'boolean',
  scheduled_time: 'string',
  schedule_condition: 'string',
  seq_type: 'string',
  attachments: 'array',
};
const LEAD_SETTINGS = ['ignore_global_block_list', 'ignore_unsubscribe_list', 'ignore_community_bounce_list', 'ignore_duplicate_leads_in_other_campaign'];

const bad = (error: string): Reply => ({ status: 400, body: { error } });

export async function startFakeSmartlead(opts: { apiKey: string; port?: number }) {
  const campaignLeads = new Map<string, Set<string>>();

  const route = (req: RecordedRequest): Reply => {
    // The documented 401 bodies: no key, and a key that is not one.
    if (!req.query.api_key) return { status: 401, body: { message: 'API key is required.' } };
    if (req.query.api_key !== opts.apiKey) return { status: 401, body: { message: 'Invalid API key.' } };
    if (req.method !== 'POST') return { status: 404, body: { error: 'Not found' } };
    if (typeof req.json !== 'object' || req.json === null) return bad('Request body must be a JSON object');
    const replyMatch = REPLY_PATH.exec(req.path);
    if (replyMatch) return reply(replyMatch[1], req.json);
    const leadsMatch = LEADS_PATH.exec(req.path);
    if (leadsMatch) return addLeads(leadsMatch[1], req.json);
    return { status: 404, body: { error: 'Not found' } };
  };

  function reply(campaignId: string, b: any): Reply {
    if (!/^\d+$/.test(campaignId)) return bad('"campaign_id" must be a number');
    for (const [field, type] of Object.entries(REPLY_FIELDS)) {
      const v = b[field];
      if (v === undefined) continue;
      const ok = type === 'array' ? Array.isArray(v) : typeof v === type;
      if (!ok) return bad(`"${field}" must be a ${type}`);
    }
    const unknown = Object.keys(b).find((k) => !(k in REPLY_FIELDS));
    if (unknown) return bad(`"${unknown}" is not allowed`);
    if (!isNonEmptyString(b.email_stats_id)) return bad('"email_stats_id" is required');
    if (!isNonEmptyString(b.email_body)) return bad('"email_body" is required');
    if (b.to_email !== undefined && !isEmail(b.to_email)) return bad('"to_email" must be a valid email');
    if (b.reply_email_time !== undefined && Number.isNaN(Date.parse(b.reply_email_time))) return bad('"reply_email_time" must be a valid date');
    return { status: 200, body: { success: true, message: 'Reply sent successfully' } };
  }

  function addLeads(campaignId: string, b: any): Reply {
    if (!/^\d+$/.test(campaignId)) return bad('"campaign_id" must be a number');
    if (!Array.isArray(b.lead_list) || b.lead_list.length < 1) return bad('"lead_list" is required');
    if (b.lead_list.length > 400) return bad('"lead_list" must contain less than or equal to 400 items');
    if (b.settings !== undefined) {
      const unknown = Object.keys(b.settings ?? {}).find((k) => !LEAD_SETTINGS.includes(k));
      if (unknown) return bad(`"settings.${unknown}" is not allowed`);
    }
    const existing = campaignLeads.get(campaignId) ?? new Set<string>();
    campaignLeads.set(campaignId, existing);
    const seen = new Set<string>();
    let added = 0;
    let already = 0;
    let duplicates = 0;
    const invalid: string[] = [];
    for (const lead of b.lead_list) {
      if (!isEmail(lead?.email)) {
        invalid.push(String(lead?.email ?? ''));
        continue;
      }
      const email = lead.email.toLowerCase();
      if (seen.has(email)) {
        duplicates++;
        continue;
      }
      seen.add(email);
      if (existing.has(email)) {
        already++;
        continue;
      }
      existing.add(email);
      added++;
    }
    return {
      status: 200,
      body: {
        ok: true,
        upload_count: b.lead_list.length,
        total_leads: added,
        already_added_to_campaign: already,
        duplicate_count: duplicates,
        invalid_email_count: invalid.length,
        invalid_emails: invalid,
        unsubscribed_leads: [],
        is_lead_limit_exhausted: false,
        lead_import_stopped_count: 0,
      },
    };
  }

  const api = await startFakeApi(route, {
    port: opts.port,
    failureBody: (f: FakeFailure & { status: number }) => {
      if (f.status !== 429) return { error: 'Internal server error' };
      const retryAfter = 'retryAfterSec' in f ? f.retryAfterSec : undefined;
      return { error: { code: 'RATE_LIMIT_EXCEEDED', message: `Too many requests. Please retry after ${retryAfter ?? 60} seconds.`, retry_after: retryAfter ?? 60 } };
    },
  });
  return {
    ...api,
    replies: () => api.requests.filter((r) => REPLY_PATH.test(r.path)),
    reset() {
      api.reset();
      campaignLeads.clear();
    },
  };
}
