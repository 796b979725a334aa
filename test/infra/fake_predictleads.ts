// A local stand-in for the PredictLeads API v3 endpoints the production enrichment adapter calls
// (docs.predictleads.com/v3): GET /api/v3/companies/{domain} and its job_openings, financing_events,
// technology_detections and news_events, authenticated by the `X-Api-Key` and `X-Api-Token` headers. It answers
// JSON:API style documents (`data: [{ id, type, attributes, relationships }]`, `included`), 404 for an unknown
// company, 401 for wrong credentials, and records every request. Failure modes: fake_shared.ts (429 with
// Retry-After, 5xx, slow answers, redirects, dropped connections).
import { startFakeApi, type RecordedRequest, type Reply } from './fake_shared';

export type FakePredictLeads = Awaited<ReturnType<typeof startFakeApi>> & {
  addCompany(domain: string, c: FakeCompany): void;
};

export type FakeCompany = {
  attributes?: Record<string, unknown>;
  jobs?: Array<{ title: string; categories?: string[]; first_seen_at?: string; url?: string }>;
  financing?: Array<{ financing_type?: string; amount_normalized?: number | string; effective_date?: string; found_at?: string }>;
  technologies?: Array<{ name: string; first_seen_at?: string; last_seen_at?: string }>;
  news?: Array<{ category: string; summary?: string; effective_date?: string; found_at?: string; article?: { title: string; url: string } }>;
};

const err = (status: number, message: string): Reply => ({ status, body: { error: { type: status === 401 ? 'unauthorized' : 'not_found', message } } });

export async function startFakePredictLeads(opts: { apiKey: string; apiToken: string; port?: number }): Promise<FakePredictLeads> {
  const companies = new Map<string, FakeCompany>();

  const route = (req: RecordedRequest): Reply => {
    if (req.method !== 'GET') return err(404, 'Route not found');
    if (req.headers['x-api-key'] !== opts.apiKey || req.headers['x-api-token'] !== opts.apiToken) return err(401, 'Authentication failed.');
    const m = /^\/api\/v3\/companies\/([^/]+)(?:\/([a-z_]+))?$/.exec(req.path);
    if (!m) return err(404, 'Route not found');
    const domain = decodeURIComponent(m[1]).toLowerCase();
    const c = companies.get(domain);
    if (!c) return err(404, 'Company not found');
    const company = { id: `co-${domain}`, type: 'company', attributes: { domain, company_name: domain.split('.')[0], ...c.attributes } };
    const rel = { company: { data: { id: company.id, type: 'company' } } };
    switch (m[2]) {
      case undefined:
        return { status: 200, body: { data: [company], included: [], meta: { count: 1 } } };
      case 'job_openings':
        return ok(
          (c.jobs ?? []).map((j, i) => ({ id: `job-${i}`, type: 'job_opening', attributes: { title: j.title, url: j.url ?? `https://${domain}/jobs/${i}`, categories: j.categories ?? [], first_seen_at: j.first_seen_at ?? null, last_seen_at: j.first_seen_at ?? null }, relationships: rel })),
          [company],
        );
      case 'financing_events':
        return ok((c.financing ?? []).map((f, i) => ({ id: `fin-${i}`, type: 'financing_event', attributes: { ...f }, relationships: { company1: rel.company } })), [company]);
      case 'technology_detections': {
        const techs = (c.technologies ?? []).map((t, i) => ({ id: `tech-${i}`, type: 'technology', attributes: { name: t.name } }));
        const rows = (c.technologies ?? []).map((t, i) => ({
          id: `det-${i}`,
          type: 'technology_detection',
          attributes: { first_seen_at: t.first_seen_at ?? null, last_seen_at: t.last_seen_at ?? null },
          relationships: { ...rel, technology: { data: { id: `tech-${i}`, type: 'technology' } } },
        }));
        return ok(rows, [company, ...techs]);
      }
      case 'news_events': {
        const articles = (c.news ?? []).flatMap((n, i) => (n.article ? [{ id: `art-${i}`, type: 'news_article', attributes: { ...n.article } }] : []));
        const rows = (c.news ?? []).map((n, i) => ({
          id: `news-${i}`,
          type: 'news_event',
          attributes: { category: n.category, summary: n.summary ?? null, effective_date: n.effective_date ?? null, found_at: n.found_at ?? null },
          relationships: { company1: rel.company, ...(n.article && { most_relevant_source: { data: { id: `art-${i}`, type: 'news_article' } } }) },
        }));
        return ok(rows, [company, ...articles]);
      }
      default:
        return err(404, 'Route not found');
    }
  };
  const ok = (data: unknown[], included: unknown[]): Reply => ({ status: 200, body: { data, included, meta: { count: data.length } } });

  const api = await startFakeApi(route, { port: opts.port, failureBody: (f) => ({ error: { type: f.status === 429 ? 'too_many_requests' : 'server_error', message: `HTTP ${f.status}` } }) });
  return Object.assign(api, {
    addCompany(domain: string, c: FakeCompany) {
      companies.set(domain.toLowerCase(), c);
    },
  });
}
