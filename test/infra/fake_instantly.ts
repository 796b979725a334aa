// A local stand-in for the two Instantly API v2 endpoints we call (developer.instantly.ai; docs/sending_providers.md):
// POST /api/v2/emails/reply and POST /api/v2/leads/add. It checks the Bearer key and the documented required
// fields, answers the documented success bodies, and records every request. Failure modes: fake_shared.ts.
import { fakeUuid, isEmail, isNonEmptyString, isUuid, startFakeApi, type FakeFailure, type RecordedRequest, type Reply } from './fake_shared';

export type FakeInstantly = Awaited<ReturnType<typeof startFakeInstantly>>;

// Instantly's error bodies are not documented in detail; these follow its API server's usual `{ statusCode, error, message }`.
const error = (status: number, error: string, message: string): Reply => ({ status, body: { statusCode: status, error, message } });

export async function startFakeInstantly(opts: { apiKey: string; port?: number }) {
  /** Leads added per campaign id, by lower-cased email (what makes a second add a duplicate). */
  const campaignLeads = new Map<string, Set<string>>();

  const route = (req: RecordedRequest): Reply => {
    if (req.headers.authorization !== `Bearer ${opts.apiKey}`) return error(401, 'Unauthorized', 'Invalid API key');
    if (req.method !== 'POST') return error(404, 'Not Found', `Route ${req.method}:${req.path} not found`);
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json') || typeof req.json !== 'object' || req.json === null) {
      return error(400, 'Bad Request', 'body must be a JSON object');
    }
    if (req.path === '/api/v2/emails/reply') return reply(req.json);
    if (req.path === '/api/v2/leads/add') return addLeads(req.json);
    return error(404, 'Not Found', `Route POST:${req.path} not found`);
  };

  function reply(b: any): Reply {
    const missing = ['eaccount', 'reply_to_uuid', 'subject', 'body'].filter((f) => b[f] === undefined || b[f] === null);
    if (missing.length) return error(400, 'Bad Request', `body must have required property '${missing[0]}'`);
    if (!isEmail(b.eaccount)) return error(400, 'Bad Request', 'body/eaccount must be an email account connected to the workspace');
    if (!isUuid(b.reply_to_uuid)) return error(400, 'Bad Request', 'body/reply_to_uuid must match format "uuid"');
    if (typeof b.subject !== 'string') return error(400, 'Bad Request', 'body/subject must be string');
    if (typeof b.body !== 'object' || (!isNonEmptyString(b.body.text) && !isNonEmptyString(b.body.html))) {
      return error(400, 'Bad Request', 'body/body must contain html or text');
    }
    const now = new Date().toISOString();
    return {
      status: 200,
      body: {
        id: fakeUuid(),
        timestamp_created: now,
        timestamp_email: now,
        message_id: `<${fakeUuid()}@instantly.fake>`,
        subject: b.subject,
        to_address_email_list: 'prospect@unknown.invalid',
        body: { text: b.body.text ?? null, html: b.body.html ?? null },
        organization_id: fakeUuid(),
        eaccount: b.eaccount,
        from_address_email: b.eaccount,
        cc_address_email_list: b.cc_address_email_list ?? null,
        bcc_address_email_list: b.bcc_address_email_list ?? null,
        thread_id: fakeUuid(),
        ue_type: 3,
        is_unread: 0,
        is_auto_reply: 0,
      },
    };
  }

  function addLeads(b: any): Reply {
    if (!Array.isArray(b.leads) || b.leads.length < 1 || b.leads.length > 1000) return error(400, 'Bad Request', 'body/leads must have 1 to 1000 items');
    if ((b.campaign_id === undefined) === (b.list_id === undefined)) return error(400, 'Bad Request', 'provide exactly one of campaign_id or list_id');
    if (b.campaign_id !== undefined && !isUuid(b.campaign_id)) return error(400, 'Bad Request', 'body/campaign_id must match format "uuid"');
    const key = String(b.campaign_id ?? b.list_id);
    const existing = campaignLeads.get(key) ?? new Set<string>();
    campaignLeads.set(key, existing);
    const seen = new Set<string>();
    const created: Array<{ id: string; email: string; index: number }> = [];
    let invalid = 0;
    let incomplete = 0;
    let duplicateInRequest = 0;
    let alreadyThere = 0;
    b.leads.forEach((lead: any, index: number) => {
      if (b.campaign_id !== undefined && (lead?.email === undefined || lead?.email === null)) return void incomplete++;
      if (!isEmail(lead.email)) return void invalid++;
      const email = lead.email.toLowerCase();
      if (seen.has(email)) return void duplicateInRequest++;
      seen.add(email);
      if (existing.has(email)) return void alreadyThere++;
      existing.add(email);
      created.push({ id: fakeUuid(), email: lead.email, index });
    });
    return {
      status: 200,
      body: {
        status: 'success',
        total_sent: b.leads.length,
        leads_uploaded: created.length,
        in_blocklist: 0,
        blocklist_used: b.blocklist_id ?? null,
        duplicated_leads: alreadyThere,
        skipped_count: alreadyThere,
        invalid_email_count: invalid,
        incomplete_count: incomplete,
        duplicate_email_count: duplicateInRequest,
        remaining_in_plan: 100_000,
        created_leads: created,
      },
    };
  }

  const api = await startFakeApi(route, {
    port: opts.port,
    failureBody: (f: FakeFailure & { status: number }) =>
      f.status === 429
        ? { statusCode: 429, error: 'Too Many Requests', message: 'Rate limit exceeded, retry in 1 minute' }
        : { statusCode: f.status, error: 'Internal Server Error', message: 'Something went wrong' },
  });
  return {
    ...api,
    /** The reply requests received, parsed. */
    replies: () => api.requests.filter((r) => r.path === '/api/v2/emails/reply'),
    reset() {
      api.reset();
      campaignLeads.clear();
    },
  };
}
