// A local stand-in for the Cloudflare API v4 calls the production DNS adapter makes (developers.cloudflare.com/api):
// GET/POST /client/v4/zones, GET/POST /client/v4/zones/{id}/dns_records and PUT /client/v4/zones/{id}/rulesets/
// phases/http_request_dynamic_redirect/entrypoint, with a Bearer token. It answers the documented envelope
// `{ success, errors, messages, result }` (errors with Cloudflare's codes), keeps zones, records and the redirect
// entrypoint, and records every request. Failure modes: fake_shared.ts.
import { startFakeApi, type RecordedRequest, type Reply } from './fake_shared';

export type FakeCloudflare = Awaited<ReturnType<typeof startFakeCloudflare>>;

type Zone = { id: string; name: string; account: { id: string }; status: string };
type Record_ = { id: string; type: string; name: string; content: string; ttl: number; priority?: number };

const PREFIX = '/client/v4';
const ok = (result: unknown, status = 200): Reply => ({ status, body: { success: true, errors: [], messages: [], result } });
const fail = (status: number, code: number, message: string): Reply => ({ status, body: { success: false, errors: [{ code, message }], messages: [], result: null } });

export async function startFakeCloudflare(opts: { apiToken: string; accountId: string; port?: number }) {
  const zones = new Map<string, Zone>();
  const records = new Map<string, Record_[]>();
  const redirects = new Map<string, unknown[]>();
  let seq = 0;
  const newId = () => (++seq).toString(16).padStart(32, '0');

  const route = (req: RecordedRequest): Reply => {
    if (req.headers.authorization !== `Bearer ${opts.apiToken}`) return fail(403, 9109, 'Invalid access token');
    const path = req.path.startsWith(PREFIX) ? req.path.slice(PREFIX.length) : req.path;
    if (path === '/zones' && req.method === 'GET') {
      const found = [...zones.values()].filter((z) => (!req.query.name || z.name === req.query.name) && (!req.query['account.id'] || z.account.id === req.query['account.id']));
      return ok(found);
    }
    if (path === '/zones' && req.method === 'POST') return createZone(req.json);
    const rec = /^\/zones\/([^/]+)\/dns_records$/.exec(path);
    if (rec) {
      const list = records.get(rec[1]);
      if (!list) return fail(404, 7003, 'Could not route to /zones/…/dns_records, perhaps your object identifier is invalid?');
      if (req.method === 'GET') return ok(list.filter((r) => (!req.query.type || r.type === req.query.type) && (!req.query.name || r.name === req.query.name)));
      if (req.method === 'POST') return createRecord(list, req.json);
    }
    const rs = /^\/zones\/([^/]+)\/rulesets\/phases\/http_request_dynamic_redirect\/entrypoint$/.exec(path);
    if (rs && req.method === 'PUT') {
      if (!zones.has(rs[1])) return fail(404, 7003, 'zone not found');
      const rules = Array.isArray(req.json?.rules) ? req.json.rules : null;
      if (!rules) return fail(400, 20021, 'rules: required');
      redirects.set(rs[1], rules);
      return ok({ id: newId(), kind: 'zone', phase: 'http_request_dynamic_redirect', rules });
    }
    return fail(404, 7000, 'No route for that URI');
  };

  function createZone(body: any): Reply {
    if (typeof body?.name !== 'string' || body?.account?.id !== opts.accountId) return fail(400, 1001, 'Invalid zone name or account');
    if ([...zones.values()].some((z) => z.name === body.name)) return fail(400, 1061, `${body.name} already exists`);
    const zone: Zone = { id: newId(), name: body.name, account: { id: body.account.id }, status: 'pending' };
    zones.set(zone.id, zone);
    records.set(zone.id, []);
    return ok(zone);
  }

  function createRecord(list: Record_[], body: any): Reply {
    if (!['TXT', 'CNAME', 'MX', 'A', 'AAAA'].includes(body?.type) || typeof body?.name !== 'string' || typeof body?.content !== 'string') return fail(400, 9000, 'DNS Validation Error');
    if (body.type === 'MX' && typeof body.priority !== 'number') return fail(400, 9100, 'MX records require a priority');
    if (list.some((r) => r.type === body.type && r.name === body.name && r.content === body.content)) return fail(400, 81058, 'An identical record already exists.');
    const r: Record_ = { id: newId(), type: body.type, name: body.name, content: body.content, ttl: body.ttl ?? 1, ...(body.priority !== undefined && { priority: body.priority }) };
    list.push(r);
    return ok(r);
  }

  const api = await startFakeApi(route, {
    port: opts.port,
    failureBody: (f) => (f.status === 429 ? { success: false, errors: [{ code: 971, message: 'Please wait and consider throttling your request speed' }], messages: [], result: null } : { success: false, errors: [{ code: 10000, message: 'Internal error' }], messages: [], result: null }),
  });
  return {
    ...api,
    zoneNamed: (name: string) => [...zones.values()].find((z) => z.name === name) ?? null,
    recordsOf: (name: string) => {
      const z = [...zones.values()].find((x) => x.name === name);
      return z ? (records.get(z.id) ?? []) : [];
    },
    redirectOf: (name: string) => {
      const z = [...zones.values()].find((x) => x.name === name);
      return z ? (redirects.get(z.id) ?? null) : null;
    },
    reset() {
      api.reset();
      zones.clear();
      records.clear();
      redirects.clear();
    },
  };
}
