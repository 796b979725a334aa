// PredictLeads (https://docs.predictleads.com/v3) as the production enrichment provider: company facts, job
// openings (vacancy search and hiring signals), financing events, technology detections and news events, all keyed
// by the company's domain under PREDICTLEADS_API_URL, authenticated with the documented `X-Api-Key` and
// `X-Api-Token` headers. Every call is logged in enrichment_calls with its estimated cost.
//
// Answers: 404 → the provider does not know the domain (null / no rows, costs nothing); 429 → EnrichmentRetryLater
// with its Retry-After; 5xx, a timeout or no connection → EnrichmentRetryLater (transient); 401/403/other 4xx or an
// unreadable body → EnrichmentFailed (retrying soon would not help). Never a redirect (an answer only from the
// host configured). The key and token never appear in a message.
import { apiUrl, failedBeforeSending, parseRetryAfter, redact } from '../../providers/request';
import { EnrichmentFailed } from './errors';
import { logEnrichmentCall, type EnrichmentOperation } from './log';
import { EnrichmentRetryLater, type EnrichmentContext, type EnrichmentPort, type Signal, type SignalKind } from './port';
import {
  companyOf,
  filterVacancies,
  fundingSignalsOf,
  hiringSignalsOf,
  newsSignalsOf,
  PREDICTLEADS,
  technologiesOf,
  techSignalsOf,
  vacanciesOf,
  type JsonApiDocument,
} from './predictleads_map';
import { normalDomain } from './sim';

export const PREDICTLEADS_TIMEOUT_MS = 15_000;
/** Asked to wait without a Retry-After (a 5xx, a timeout): a minute, like PredictLeads' per-minute limits. */
export const PREDICTLEADS_DEFAULT_RETRY_SEC = 60;
/**
 * What one answered request costs us, in millionths of a dollar: PredictLeads bills API calls against a monthly
 * credit quota; at list prices a call comes to a few cents, so 25,000 (2.5 cents) per answered call (200, even an
 * empty list) is the estimate logged. 404s, 429s, 5xx and timeouts are logged at 0. An estimate, not an invoice.
 */
export const PREDICTLEADS_COST_MICROS = 25_000;

const PATH_OF: Record<Exclude<SignalKind, never>, { operation: EnrichmentOperation; path: string; query: Record<string, string> }> = {
  hiring: { operation: 'job_openings', path: 'job_openings', query: { active_only: 'true', limit: '100' } },
  funding: { operation: 'financing_events', path: 'financing_events', query: { limit: '100' } },
  tech_change: { operation: 'technology_detections', path: 'technology_detections', query: { limit: '100' } },
  news: { operation: 'news_events', path: 'news_events', query: { limit: '100' } },
};

export type PredictLeadsOptions = { apiKey: string; apiToken: string; baseUrl: string; timeoutMs?: number };

export function createPredictLeadsEnrichment(opts: PredictLeadsOptions): EnrichmentPort {
  const timeoutMs = opts.timeoutMs ?? PREDICTLEADS_TIMEOUT_MS;
  const hide = (text: string) => redact(redact(text, opts.apiKey), opts.apiToken);

  /** One GET, logged; the parsed document, or null for a 404. Throws RetryLater / EnrichmentFailed as above. */
  async function get(ctx: EnrichmentContext, operation: EnrichmentOperation, domain: string, path: string, query: Record<string, string> = {}): Promise<JsonApiDocument | null> {
    const url = apiUrl(opts.baseUrl, `/companies/${encodeURIComponent(domain)}${path ? `/${path}` : ''}`, query);
    const log = (outcome: 'found' | 'empty' | 'error' | 'rate_limited', cost = 0) =>
      logEnrichmentCall(ctx, { provider: PREDICTLEADS, operation, domain, outcome, costMicros: cost, simulated: false });
    const signal = AbortSignal.timeout(timeoutMs);
    let res: Response;
    let text: string;
    try {
      res = await fetch(url.href, { method: 'GET', headers: { Accept: 'application/json', 'X-Api-Key': opts.apiKey, 'X-Api-Token': opts.apiToken }, redirect: 'manual', signal });
      text = await res.text();
    } catch (err) {
      await log('error');
      const why = signal.aborted ? `timeout after ${timeoutMs} ms` : failedBeforeSending(err) ? 'unreachable' : 'connection lost';
      throw new EnrichmentRetryLater(PREDICTLEADS_DEFAULT_RETRY_SEC, `predictleads ${operation}: ${why}`);
    }
    if (res.status === 404) {
      await log('empty');
      return null;
    }
    if (res.status === 429 || res.status >= 500) {
      await log(res.status === 429 ? 'rate_limited' : 'error');
      const wait = parseRetryAfter(res.headers.get('retry-after')) ?? PREDICTLEADS_DEFAULT_RETRY_SEC;
      throw new EnrichmentRetryLater(wait, hide(`predictleads ${operation}: HTTP ${res.status}${res.status === 429 ? ' (rate limited)' : ''}`));
    }
    let doc: JsonApiDocument | null = null;
    try {
      doc = text ? (JSON.parse(text) as JsonApiDocument) : null;
    } catch {
      doc = null;
    }
    if (res.status !== 200 || !doc || typeof doc !== 'object' || !('data' in doc)) {
      await log('error');
      const message = (doc as { message?: unknown; error?: { message?: unknown } } | null)?.error?.message ?? (doc as { message?: unknown } | null)?.message;
      throw new EnrichmentFailed(hide(`predictleads ${operation}: HTTP ${res.status}${typeof message === 'string' ? `: ${message.slice(0, 160)}` : res.status === 200 ? ': not a JSON:API document' : ''}`), PREDICTLEADS);
    }
    const rows = Array.isArray(doc.data) ? doc.data.length : doc.data ? 1 : 0;
    await log(rows > 0 ? 'found' : 'empty', PREDICTLEADS_COST_MICROS);
    return doc;
  }

  return {
    kind: 'predictleads',
    async company(ctx, rawDomain) {
      const domain = normalDomain(rawDomain);
      const doc = await get(ctx, 'company', domain, '');
      if (!doc || !companyOf(doc, domain, [])) return null;
      const tech = await get(ctx, 'technology_detections', domain, PATH_OF.tech_change.path, PATH_OF.tech_change.query);
      return companyOf(doc, domain, tech ? technologiesOf(tech, ctx.now) : []);
    },
    async vacancies(ctx, rawDomain, role, customRole) {
      const domain = normalDomain(rawDomain);
      const doc = await get(ctx, 'job_openings', domain, PATH_OF.hiring.path, PATH_OF.hiring.query);
      return doc ? filterVacancies(vacanciesOf(doc), role, customRole) : [];
    },
    async signals(ctx, rawDomain, kinds) {
      const domain = normalDomain(rawDomain);
      const out: Signal[] = [];
      // One kind after the other: a 429 on the first stops the rest (they would be refused too).
      for (const kind of [...new Set(kinds)].sort()) {
        const { operation, path, query } = PATH_OF[kind];
        const doc = await get(ctx, operation, domain, path, query);
        if (!doc) continue;
        const mapped = kind === 'hiring' ? hiringSignalsOf(doc, ctx.now) : kind === 'funding' ? fundingSignalsOf(doc, ctx.now) : kind === 'tech_change' ? techSignalsOf(doc, ctx.now) : newsSignalsOf(doc, ctx.now);
        out.push(...mapped);
      }
      const unique = new Map(out.map((s) => [`${s.kind}\u0000${s.title}`, s]));
      return [...unique.values()].sort((a, b) => (b.happened_on ?? '').localeCompare(a.happened_on ?? '') || a.kind.localeCompare(b.kind) || a.title.localeCompare(b.title));
    },
  };
}
