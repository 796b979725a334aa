// A local stand-in for the Instantly API v2 calls the production sequencer makes (lib/ports/sequencer/instantly.ts;
// developer.instantly.ai): GET /api/v2/campaigns?search=, POST /api/v2/campaigns, PATCH /api/v2/campaigns/{id} and
// POST /api/v2/leads/add and POST /api/v2/campaigns/{id}/activate. It checks the Bearer key and the documented required fields (name, campaign_schedule with
// non-empty schedules, timing HH:MM, days, timezone; leads with emails and campaign_id), keeps campaigns and their
// leads, answers the documented bodies (`{ items }`, the campaign, `{ leads_uploaded, duplicated_leads, … }`) and
// records every request. Failure modes: fake_shared.ts. test/infra/fake_instantly.ts (the reply API) is separate.
import { fakeUuid, isEmail, isUuid, startFakeApi, type RecordedRequest, type Reply } from './fake_shared';

export type FakeInstantlyV2 = Awaited<ReturnType<typeof startFakeInstantlyV2>>;
type Campaign = { id: string; name: string; status: number; email_list: string[]; daily_limit: number | null; campaign_schedule: unknown; sequences: unknown };

const error = (status: number, error: string, message: string): Reply => ({ status, body: { statusCode: status, error, message } });
const HHMM = /^([01][0-9]|2[0-3]):([0-5][0-9])$/;

export async function startFakeInstantlyV2(opts: { apiKey: string; port?: number }) {
  const campaigns = new Map<string, Campaign>();
  /** Leads per campaign id, by lower-cased email. */
  const leads = new Map<string, Map<string, any>>();

  const route = (req: RecordedRequest): Reply => {
    if (req.headers.authorization !== `Bearer ${opts.apiKey}`) return error(401, 'Unauthorized', 'Invalid API key');
    if (req.method === 'GET' && req.path === '/api/v2/campaigns') return list(req.query);
    if (req.method !== 'GET' && (typeof req.json !== 'object' || req.json === null)) return error(400, 'Bad Request', 'body must be object');
    if (req.method === 'POST' && req.path === '/api/v2/campaigns') return create(req.json);
    const act = /^\/api\/v2\/campaigns\/([^/]+)\/activate$/.exec(req.path);
    if (req.method === 'POST' && act) return activate(decodeURIComponent(act[1]));
    const m = /^\/api\/v2\/campaigns\/([^/]+)$/.exec(req.path);
    if (req.method === 'PATCH' && m) return patch(decodeURIComponent(m[1]), req.json);
    if (req.method === 'POST' && req.path === '/api/v2/leads/add') return addLeads(req.json);
    return error(404, 'Not Found', `Route ${req.method}:${req.path} not found`);
  };

  function list(q: Record<string, string>): Reply {
    const search = (q.search ?? '').toLowerCase();
    const limit = Math.min(100, Math.max(1, Number(q.limit ?? 10) || 10));
    const items = [...campaigns.values()].filter((c) => c.name.toLowerCase().includes(search)).slice(0, limit);
    return { status: 200, body: { items, next_starting_after: null } };
  }

  function create(b: any): Reply {
    if (typeof b.name !== 'string' || !b.name) return error(400, 'Bad Request', "body must have required property 'name'");
    const schedules = b.campaign_schedule?.schedules;
    if (!Array.isArray(schedules) || !schedules.length) return error(400, 'Bad Request', 'body/campaign_schedule/schedules must NOT have fewer than 1 items');
    for (const s of schedules) {
      if (typeof s.name !== 'string' || !HHMM.test(s.timing?.from ?? '') || !HHMM.test(s.timing?.to ?? '')) return error(400, 'Bad Request', 'body/campaign_schedule/schedules/0/timing is invalid');
      if (typeof s.days !== 'object' || !s.days || !Object.keys(s.days).length || typeof s.timezone !== 'string') return error(400, 'Bad Request', 'body/campaign_schedule/schedules/0 days and timezone are required');
    }
    if (b.email_list !== undefined && (!Array.isArray(b.email_list) || !b.email_list.every(isEmail))) return error(400, 'Bad Request', 'body/email_list must be emails');
    const c: Campaign = { id: fakeUuid(), name: b.name, status: 0, email_list: b.email_list ?? [], daily_limit: b.daily_limit ?? null, campaign_schedule: b.campaign_schedule, sequences: b.sequences ?? [] };
    campaigns.set(c.id, c);
    return { status: 200, body: { ...c, timestamp_created: new Date().toISOString() } };
  }

  function patch(id: string, b: any): Reply {
    const c = campaigns.get(id);
    if (!c) return error(404, 'Not Found', 'Campaign not found');
    if (b.email_list !== undefined) c.email_list = b.email_list;
    if (b.daily_limit !== undefined) c.daily_limit = b.daily_limit;
    return { status: 200, body: c };
  }

  // Instantly's campaign status: 0 draft, 1 active; activation needs leads and sending accounts, as the real API does.
  function activate(id: string): Reply {
    const c = campaigns.get(id);
    if (!c) return error(404, 'Not Found', 'Campaign not found');
    if (!c.email_list.length) return error(400, 'Bad Request', 'Campaign has no sending accounts');
    if (!(leads.get(id)?.size ?? 0)) return error(400, 'Bad Request', 'Campaign has no leads');
    c.status = 1;
    return { status: 200, body: c };
  }

  function addLeads(b: any): Reply {
    if (!Array.isArray(b.leads) || b.leads.length < 1 || b.leads.length > 1000) return error(400, 'Bad Request', 'body/leads must have 1 to 1000 items');
    if (!isUuid(b.campaign_id) || !campaigns.has(b.campaign_id)) return error(404, 'Not Found', 'Campaign not found');
    const into = leads.get(b.campaign_id) ?? new Map<string, any>();
    leads.set(b.campaign_id, into);
    let uploaded = 0;
    let duplicated = 0;
    let invalid = 0;
    const created: { id: string; email: string; index: number }[] = [];
    b.leads.forEach((l: any, index: number) => {
      if (!isEmail(l?.email)) return void invalid++;
      const vars = l.custom_variables ?? {};
      if (typeof vars !== 'object' || Object.values(vars).some((v) => v !== null && typeof v === 'object')) return void invalid++;
      const email = l.email.toLowerCase();
      if (into.has(email)) return void duplicated++;
      const id = fakeUuid();
      into.set(email, { id, ...l });
      created.push({ id, email, index });
      uploaded++;
    });
    return {
      status: 200,
      body: {
        status: 'success',
        total_sent: b.leads.length,
        leads_uploaded: uploaded,
        in_blocklist: 0,
        duplicated_leads: duplicated,
        skipped_count: duplicated,
        invalid_email_count: invalid,
        incomplete_count: 0,
        duplicate_email_count: 0,
        remaining_in_plan: 100_000,
        created_leads: created,
      },
    };
  }

  const api = await startFakeApi(route, {
    port: opts.port,
    failureBody: (f) => (f.status === 429 ? error(429, 'Too Many Requests', 'Rate limit exceeded').body : error(f.status, 'Internal Server Error', 'Something went wrong').body),
  });
  return {
    ...api,
    campaigns,
    leadsOf: (campaignId: string) => [...(leads.get(campaignId)?.values() ?? [])],
    reset() {
      api.reset();
      campaigns.clear();
      leads.clear();
    },
  };
}
