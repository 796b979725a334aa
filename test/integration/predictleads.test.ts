// The production enrichment adapter (lib/ports/enrichment/predictleads.ts) against a local fake of PredictLeads'
// API v3 (test/infra/fake_predictleads.ts): the documented requests (paths, X-Api-Key / X-Api-Token headers), the
// mapping of JSON:API answers onto the port (company facts, vacancies by hiring role, funding, tech changes, news),
// 404 → nothing, 429 → EnrichmentRetryLater with Retry-After, 5xx and timeouts → retry later, 401 → failed, no
// credential in any message, and every call logged with its cost. Then a whole signals run with
// ENRICHMENT=predictleads through the service.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { drainJobs } from '../../lib/queue/runner';
import { jobHandlers } from '../../functions/jobs/handlers';
import { EnrichmentFailed } from '../../lib/ports/enrichment/errors';
import { EnrichmentRetryLater } from '../../lib/ports/enrichment/port';
import { createPredictLeadsEnrichment, PREDICTLEADS_COST_MICROS } from '../../lib/ports/enrichment/predictleads';
import { roleOf } from '../../lib/ports/enrichment/predictleads_map';
import { enrichmentCalls, leadSignals, organizations, poolLeads } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant, type Tenant } from '../helpers/tenant';
import { startFakePredictLeads, type FakePredictLeads } from '../infra/fake_predictleads';

const KEY = 'pl-key-3c9a71';
const TOKEN = 'pl-token-88e2b0';
let fake: FakePredictLeads;
let env: TestEnv;
let t: Tenant;
const NOW = new Date('2026-06-15T10:00:00Z');
const daysAgo = (n: number) => new Date(NOW.getTime() - n * 86_400_000).toISOString();

beforeAll(async () => {
  fake = await startFakePredictLeads({ apiKey: KEY, apiToken: TOKEN });
  env = await startTestEnv({ ENRICHMENT: 'predictleads', PREDICTLEADS_API_URL: `${fake.url}/api/v3`, PREDICTLEADS_API_KEY: KEY, PREDICTLEADS_API_TOKEN: TOKEN });
  t = await newTenant(env, { features: { agency_tools: true, studio: true } });
  fake.addCompany('acme.io', {
    attributes: { company_name: 'Acme Inc', description: 'Rockets for everyone', location_data: { country: 'United States' } },
    jobs: [
      { title: 'Account Executive', categories: ['sales'], first_seen_at: daysAgo(3) },
      { title: 'Senior Backend Developer', categories: ['software_development'], first_seen_at: daysAgo(10) },
      { title: 'Customer Success Manager', categories: [], first_seen_at: daysAgo(20) },
      { title: 'Old Opening', categories: ['marketing'], first_seen_at: daysAgo(200) },
    ],
    financing: [
      { financing_type: 'Series A', amount_normalized: 12_000_000, effective_date: daysAgo(30) },
      { financing_type: 'Seed', amount_normalized: 2_000_000, effective_date: daysAgo(900) },
    ],
    technologies: [
      { name: 'HubSpot', first_seen_at: daysAgo(20), last_seen_at: daysAgo(1) },
      { name: 'Marketo', first_seen_at: daysAgo(700), last_seen_at: daysAgo(100) },
      { name: 'Stripe', first_seen_at: daysAgo(500), last_seen_at: daysAgo(2) },
    ],
    news: [{ category: 'expands_offices_to', summary: 'Acme opens an office in Berlin', found_at: daysAgo(5), article: { title: 'Acme goes to Berlin', url: 'https://news.example/acme' } }],
  });
});
afterAll(async () => {
  await env?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

const ctx = () => ({ db: env.services.db, orgId: t.org.id, now: NOW });
const port = (o: { key?: string; timeoutMs?: number } = {}) => createPredictLeadsEnrichment({ apiKey: o.key ?? KEY, apiToken: TOKEN, baseUrl: `${fake.url}/api/v3`, timeoutMs: o.timeoutMs });
const callsOf = () => env.services.db.select().from(enrichmentCalls).where(eq(enrichmentCalls.orgId, t.org.id));

describe('PredictLeads as the enrichment provider', () => {
  it('asks GET /companies/{domain} with both headers and maps the company (technologies from its detections)', async () => {
    const before = (await callsOf()).length;
    const facts = await port().company(ctx(), 'WWW.Acme.io');
    expect(facts).toEqual({ domain: 'acme.io', name: 'Acme Inc', industry: null, employees: null, founded_year: null, country: 'United States', technologies: ['HubSpot', 'Stripe'], description: 'Rockets for everyone' });
    expect(fake.requests.map((r) => r.path)).toEqual(['/api/v3/companies/acme.io', '/api/v3/companies/acme.io/technology_detections']);
    for (const r of fake.requests) expect([r.headers['x-api-key'], r.headers['x-api-token']]).toEqual([KEY, TOKEN]);
    const calls = (await callsOf()).slice(before);
    expect(calls.map((c) => [c.provider, c.operation, c.outcome, c.costMicros, c.simulated])).toEqual([
      ['predictleads', 'company', 'found', PREDICTLEADS_COST_MICROS, false],
      ['predictleads', 'technology_detections', 'found', PREDICTLEADS_COST_MICROS, false],
    ]);
  });

  it('404 is nothing known: null and empty lists, logged as empty at no cost', async () => {
    const before = (await callsOf()).length;
    expect(await port().company(ctx(), 'nobody.io')).toBeNull();
    expect(await port().vacancies(ctx(), 'nobody.io', 'default')).toEqual([]);
    expect(await port().signals(ctx(), 'nobody.io', ['funding', 'news'])).toEqual([]);
    const calls = (await callsOf()).slice(before);
    expect(calls.every((c) => c.outcome === 'empty' && c.costMicros === 0)).toBe(true);
    expect(calls).toHaveLength(4);
  });

  it('vacancies: job_openings with active_only, mapped to hiring roles by category, then title; custom matches titles', async () => {
    const p = port();
    expect((await p.vacancies(ctx(), 'acme.io', 'sales')).map((v) => v.title)).toEqual(['Account Executive']);
    expect((await p.vacancies(ctx(), 'acme.io', 'technical')).map((v) => v.title)).toEqual(['Senior Backend Developer']);
    expect((await p.vacancies(ctx(), 'acme.io', 'customer_success')).map((v) => v.title)).toEqual(['Customer Success Manager']);
    expect((await p.vacancies(ctx(), 'acme.io', 'default')).map((v) => v.title)).toHaveLength(4);
    expect(await p.vacancies(ctx(), 'acme.io', 'custom', 'backend')).toEqual([expect.objectContaining({ title: 'Senior Backend Developer', role: 'custom' })]);
    expect(await p.vacancies(ctx(), 'acme.io', 'custom')).toEqual([]);
    expect(fake.requests[0]).toMatchObject({ path: '/api/v3/companies/acme.io/job_openings', query: { active_only: 'true' } });
    expect(roleOf('Sales Engineer', [])).toBe('sales');
    expect(roleOf('Office Manager', ['administration'])).toBe('operations');
  });

  it('signals: one endpoint per kind, recent events only, newest first', async () => {
    const signals = await port().signals(ctx(), 'acme.io', ['hiring', 'funding', 'tech_change', 'news']);
    expect(fake.requests.map((r) => r.path.split('/').pop()).sort()).toEqual(['financing_events', 'job_openings', 'news_events', 'technology_detections']);
    expect(signals.map((s) => [s.kind, s.title, s.happened_on])).toEqual([
      ['hiring', 'Hiring: Account Executive', daysAgo(3).slice(0, 10)],
      ['news', 'Acme opens an office in Berlin', daysAgo(5).slice(0, 10)],
      ['hiring', 'Hiring: Senior Backend Developer', daysAgo(10).slice(0, 10)],
      ['hiring', 'Hiring: Customer Success Manager', daysAgo(20).slice(0, 10)],
      ['tech_change', 'Started using HubSpot', daysAgo(20).slice(0, 10)],
      ['funding', 'Raised $12M Series A', daysAgo(30).slice(0, 10)],
      ['tech_change', 'Stopped using Marketo', daysAgo(100).slice(0, 10)],
    ]);
    expect(signals.find((s) => s.kind === 'news')?.detail).toMatchObject({ category: 'expands_offices_to', url: 'https://news.example/acme' });
    expect(signals.every((s) => s.source === 'predictleads')).toBe(true);
  });

  it('429 throws EnrichmentRetryLater with its Retry-After; 5xx and a timeout retry later too; all logged at no cost', async () => {
    const before = (await callsOf()).length;
    fake.setFailure({ status: 429, retryAfterSec: 42 }, 1);
    const limited = await port().company(ctx(), 'acme.io').catch((e) => e);
    expect(limited).toBeInstanceOf(EnrichmentRetryLater);
    expect(limited.retryAfterSec).toBe(42);
    fake.setFailure({ status: 503 }, 1);
    const down = await port().signals(ctx(), 'acme.io', ['funding']).catch((e) => e);
    expect(down).toBeInstanceOf(EnrichmentRetryLater);
    fake.setFailure({ slowMs: 1_000 }, 1);
    const slow = await port({ timeoutMs: 100 }).vacancies(ctx(), 'acme.io', 'sales').catch((e) => e);
    expect(slow).toBeInstanceOf(EnrichmentRetryLater);
    expect(slow.message).toContain('timeout');
    const calls = (await callsOf()).slice(before);
    expect(calls.map((c) => [c.outcome, c.costMicros])).toEqual([
      ['rate_limited', 0],
      ['error', 0],
      ['error', 0],
    ]);
  });

  it('a refused key is EnrichmentFailed, never naming the key or the token; a redirect is not followed', async () => {
    const bad = await port({ key: 'wrong-key-123456' }).company(ctx(), 'acme.io').catch((e) => e);
    expect(bad).toBeInstanceOf(EnrichmentFailed);
    expect(bad.message).toContain('401');
    expect(bad.message).not.toContain('wrong-key-123456');
    expect(bad.message).not.toContain(TOKEN);
    fake.setFailure({ redirectTo: 'http://elsewhere.invalid/' }, 1);
    const moved = await port().company(ctx(), 'acme.io').catch((e) => e);
    expect(moved).toBeInstanceOf(EnrichmentFailed);
    expect(fake.requests).toHaveLength(2);
  });

  it('a whole signals run through the service stores the mapped signals and charges 1 credit for the lead', async () => {
    const key = await t.addKey({ name: 'assistant', kind: 'agency', scopes: [] });
    const recent = new Date(env.clock.now().getTime() - 20 * 86_400_000).toISOString();
    fake.addCompany('fresh.io', { financing: [{ financing_type: 'Seed', amount_normalized: 3_000_000, effective_date: recent }] });
    const [lead] = await env.services.db.insert(poolLeads).values({ orgId: t.org.id, clientId: t.client.id, email: 'ceo@fresh.io', domain: 'fresh.io', status: 'new' }).returning();
    const [{ credits: before }] = await env.services.db.select().from(organizations).where(eq(organizations.id, t.org.id));
    const path = `/v1/agency/clients/${t.client.id}/signals/run`;
    const preview = await t.call('POST', path, { key, body: { kinds: ['funding'] } });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.json.preview).toMatchObject({ provider: 'predictleads', simulated: false, max_credits: 1 });
    const run = await t.call('POST', path, { key, body: { kinds: ['funding'], confirm_token: preview.json.confirm_token } });
    expect(run.status, run.text).toBe(200);
    await drainJobs(env.services, jobHandlers);
    const stored = await env.services.db.select().from(leadSignals).where(and(eq(leadSignals.orgId, t.org.id), eq(leadSignals.leadId, lead.id)));
    expect(stored.map((s) => [s.kind, s.title, s.source])).toEqual([['funding', 'Raised $3M Seed', 'predictleads']]);
    const [{ credits: after }] = await env.services.db.select().from(organizations).where(eq(organizations.id, t.org.id));
    expect(before - after).toBe(1);
    const sim = await t.admin('GET', `/admin/v1/orgs/${t.org.id}/sim/enrichment_calls`);
    expect(sim.status).toBe(404);
    expect(sim.json.error.message).toContain('ENRICHMENT=predictleads');
  });
});
