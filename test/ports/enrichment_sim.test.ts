// The simulated enrichment provider: a function of SHA-256(SIM_SEED, domain) and ctx.now (same input, same answer;
// another seed, another world), company facts / vacancies / signals drawn from the bundled word lists, dates
// relative to ctx.now (titles never carry dates), `simulated: true`, every call logged in enrichment_calls at no
// cost, and the fault injections: fail- → EnrichmentFailed (logged error), slow- → EnrichmentRetryLater until the
// caller honours Retry-After.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnrichmentFailed } from '../../lib/ports/enrichment/errors';
import { EnrichmentRetryLater, type EnrichmentPort } from '../../lib/ports/enrichment/port';
import { createSimEnrichment, nameOfDomain, SIM_RETRY_AFTER_SEC, simAllSignals } from '../../lib/ports/enrichment/sim';
import { JOB_TITLES } from '../../lib/ports/enrichment/words';
import { enrichmentCalls } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';

let env: TestEnv;
let orgId: string;
beforeAll(async () => {
  env = await startTestEnv();
  orgId = (await newTenant(env)).org.id;
});
afterAll(() => env.close());

const NOW = new Date('2026-03-10T12:00:00Z');
const ctx = (now = NOW) => ({ db: env.services.db, orgId, now });
const domains = (n: number, prefix = 'company') => Array.from({ length: n }, (_, i) => `${prefix}${i}.example.com`);
const world = async (port: EnrichmentPort, list: string[], now = NOW) =>
  Promise.all(list.map(async (d) => ({ company: await port.company(ctx(now), d), vacancies: await port.vacancies(ctx(now), d, 'default'), signals: await port.signals(ctx(now), d, ['hiring', 'funding', 'tech_change', 'news']) })));

describe('the simulated enrichment provider', () => {
  it('answers the same for the same seed, domain and clock, and differently under another seed', async () => {
    const list = domains(40);
    const first = await world(createSimEnrichment('seed-a'), list);
    expect(await world(createSimEnrichment('seed-a'), list)).toEqual(first);
    expect(await world(createSimEnrichment('seed-b'), list)).not.toEqual(first);
  });

  it('draws believable companies from the word lists: some unknown, every signal kind present, simulated: true', async () => {
    const all = await world(createSimEnrichment('spread'), domains(200, 'spread'));
    const known = all.filter((w) => w.company !== null);
    expect(known.length).toBeGreaterThan(160);
    expect(known.length).toBeLessThan(200);
    for (const w of known) {
      expect(w.company).toMatchObject({ simulated: true, name: expect.any(String), industry: expect.any(String) });
      expect(w.company!.employees).toBeGreaterThan(0);
      expect(w.company!.technologies!.length).toBeGreaterThanOrEqual(1);
    }
    // An unknown company has nothing else either.
    for (const w of all.filter((x) => x.company === null)) expect([w.vacancies, w.signals]).toEqual([[], []]);
    const kinds = new Set(all.flatMap((w) => w.signals.map((s) => s.kind)));
    expect([...kinds].sort()).toEqual(['funding', 'hiring', 'news', 'tech_change']);
    for (const s of all.flatMap((w) => w.signals)) expect(s).toMatchObject({ source: 'sim', detail: expect.objectContaining({ simulated: true }) });
    expect(nameOfDomain('slow-acme-logistics.example.com')).toBe('Acme Logistics');
  });

  it('vacancies filter by hiring role; custom matches titles and sometimes the exact role asked', async () => {
    const port = createSimEnrichment('roles');
    let customs = 0;
    for (const d of domains(80, 'roles')) {
      const all = await port.vacancies(ctx(), d, 'default');
      const sales = await port.vacancies(ctx(), d, 'sales');
      expect(sales).toEqual(all.filter((v) => v.role === 'sales'));
      for (const v of sales) expect(JOB_TITLES.sales).toContain(v.title);
      const custom = await port.vacancies(ctx(), d, 'custom', 'solutions architect');
      for (const v of custom) expect(v).toMatchObject({ role: 'custom', title: expect.stringMatching(/solutions architect/i) });
      customs += custom.length;
      expect(await port.vacancies(ctx(), d, 'custom')).toEqual([]);
    }
    expect(customs).toBeGreaterThan(5);
  });

  it('dates are offsets back from ctx.now: a later clock moves them, titles stay (no duplicate signals)', async () => {
    const later = new Date(NOW.getTime() + 10 * 86_400_000);
    for (const d of domains(30, 'dates')) {
      const a = await simAllSignals('dates', d, NOW);
      const b = await simAllSignals('dates', d, later);
      expect(b.map((s) => s.title)).toEqual(a.map((s) => s.title));
      for (const [i, s] of a.entries()) {
        expect(s.happened_on! <= NOW.toISOString().slice(0, 10)).toBe(true);
        expect(Date.parse(b[i].happened_on!) - Date.parse(s.happened_on!)).toBe(10 * 86_400_000);
      }
    }
  });

  it('logs every call in enrichment_calls (simulated, cost 0) with its outcome', async () => {
    const port = createSimEnrichment('log');
    const domain = 'logged-company.example.com';
    await port.company(ctx(), domain);
    await port.signals(ctx(), domain, ['news']);
    const rows = await env.services.db.select().from(enrichmentCalls).where(and(eq(enrichmentCalls.orgId, orgId), eq(enrichmentCalls.domain, domain)));
    expect(rows.map((r) => [r.provider, r.operation, r.simulated, r.costMicros])).toEqual([
      ['sim', 'company', true, 0],
      ['sim', 'signals', true, 0],
    ]);
    expect(rows.every((r) => ['found', 'empty'].includes(r.outcome))).toBe(true);
  });

  it('fail- domains are provider errors: EnrichmentFailed, logged as error', async () => {
    const port = createSimEnrichment('faults');
    const err = await port.signals(ctx(), 'fail-acme.example.com', ['funding']).catch((e) => e);
    expect(err).toBeInstanceOf(EnrichmentFailed);
    expect(await port.company(ctx(), 'fail-acme.example.com').catch((e) => e)).toBeInstanceOf(EnrichmentFailed);
    const rows = await env.services.db.select().from(enrichmentCalls).where(and(eq(enrichmentCalls.orgId, orgId), eq(enrichmentCalls.domain, 'fail-acme.example.com')));
    expect(rows.map((r) => r.outcome)).toEqual(['error', 'error']);
  });

  it('slow- domains are rate-limited until the caller waits out Retry-After, per operation', async () => {
    const port = createSimEnrichment('faults');
    const d = 'slow-acme.example.com';
    const first = await port.signals(ctx(), d, ['news']).catch((e) => e);
    expect(first).toBeInstanceOf(EnrichmentRetryLater);
    expect(first.retryAfterSec).toBe(SIM_RETRY_AFTER_SEC);
    // Too early: refused again (and that refusal restarts the wait).
    const early = new Date(NOW.getTime() + (SIM_RETRY_AFTER_SEC - 1) * 1000);
    expect(await port.signals(ctx(early), d, ['news']).catch((e) => e)).toBeInstanceOf(EnrichmentRetryLater);
    const waited = new Date(early.getTime() + SIM_RETRY_AFTER_SEC * 1000);
    expect(Array.isArray(await port.signals(ctx(waited), d, ['news']))).toBe(true);
    // Another operation has its own first refusal.
    expect(await port.company(ctx(waited), d).catch((e) => e)).toBeInstanceOf(EnrichmentRetryLater);
    const rows = await env.services.db.select().from(enrichmentCalls).where(and(eq(enrichmentCalls.orgId, orgId), eq(enrichmentCalls.domain, d)));
    expect(rows.map((r) => [r.operation, r.outcome])).toEqual([
      ['signals', 'rate_limited'],
      ['signals', 'rate_limited'],
      ['signals', expect.stringMatching(/found|empty/)],
      ['company', 'rate_limited'],
    ]);
  });
});
