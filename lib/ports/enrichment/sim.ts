// The simulated enrichment provider (agency-operator.md §6): company facts, open vacancies and signals that are a
// function of SHA-256(SIM_SEED, domain, …) and the bundled word lists in words.ts, never of chance, so a test, a
// demo and a developer see the same companies. Dates are offsets back from ctx.now (the wall clock, or the stored
// clock under CLOCK=sim), so a simulated clock keeps every answer reproducible. Titles carry no dates: a signal
// found again on a later day has the same title and is not stored twice.
//
// About 92 % of domains are known (the rest answer null / nothing, like a provider that has never seen them).
// Faults by domain name: `fail-…` is a provider error (logged `error`, thrown as EnrichmentFailed); `slow-…` is
// rate-limited (logged `rate_limited`, thrown as EnrichmentRetryLater with Retry-After SIM_RETRY_AFTER_SEC) unless
// the organization's previous call for that domain and operation was itself rate-limited at least that long ago:
// the first attempt is always refused and the retry that honours Retry-After gets through, as with a real 429.
import { and, desc, eq } from 'drizzle-orm';
import { enrichmentCalls } from '../../../schema';
import { EnrichmentFailed } from './errors';
import { logEnrichmentCall, type CallOutcome, type EnrichmentOperation } from './log';
import { EnrichmentRetryLater, type CompanyFacts, type EnrichmentContext, type EnrichmentPort, type HiringRole, type Signal, type SignalKind, type Vacancy } from './port';
import { CITIES, COUNTRIES, DESCRIPTIONS, FUNDING_ROUNDS, INDUSTRIES, JOB_TITLES, NEWS_HEADLINES, ROLES, ROUND_AMOUNTS_M, TECHNOLOGIES } from './words';

export const SIM_PROVIDER = 'sim';
export const SIM_RETRY_AFTER_SEC = 30;
const DAY_MS = 86_400_000;

/** The simulation's answers carry `simulated: true` beside the port's fields (JSON readers see it; types stay the port's). */
export type SimCompanyFacts = CompanyFacts & { simulated: true };
export type SimVacancy = Vacancy & { simulated: true };

async function digest(seed: string, ...parts: string[]): Promise<Uint8Array> {
  const data = new TextEncoder().encode([seed, ...parts].join('\u0000'));
  return new Uint8Array(await crypto.subtle.digest('SHA-256', data));
}
/** A number in 0..9999 from two bytes of a digest. */
const bucket = (h: Uint8Array, at: number) => ((h[at] << 8) | h[at + 1]) % 10_000;
const pick = <T>(list: readonly T[], h: Uint8Array, at: number): T => list[h[at] % list.length];

export const normalDomain = (domain: string) => domain.trim().toLowerCase().replace(/^www\./, '');
const isoDay = (now: Date, daysAgo: number) => new Date(now.getTime() - daysAgo * DAY_MS).toISOString().slice(0, 10);
const titleCase = (s: string) =>
  s
    .split(/[\s\-_]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(' ');
const fill = (template: string, values: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? k);

/** "acme-logistics.example.com" → "Acme Logistics": how a company's name usually reads off its domain. */
export const nameOfDomain = (domain: string) => titleCase(normalDomain(domain).split('.')[0].replace(/^(fail|slow)-/, ''));

const EMPLOYEE_BANDS: ReadonlyArray<readonly [number, number]> = [
  [2, 10],
  [11, 50],
  [11, 50],
  [51, 200],
  [51, 200],
  [201, 1000],
  [1001, 5000],
];

type World = { facts: SimCompanyFacts; city: string } | null;

/** What the simulated world knows of the company at this domain (null: nothing, like an unknown domain). */
export async function simCompanyWorld(seed: string, rawDomain: string, now: Date): Promise<World> {
  const domain = normalDomain(rawDomain);
  const d = await digest(seed, 'enrich-company', domain);
  if (bucket(d, 0) < 800) return null;
  const name = nameOfDomain(domain);
  const industry = pick(INDUSTRIES, d, 2);
  const [lo, hi] = pick(EMPLOYEE_BANDS, d, 3);
  const technologies = [...new Set([10, 11, 12, 13, 14, 15, 16].slice(0, 3 + (d[9] % 5)).map((at) => pick(TECHNOLOGIES, d, at)))].sort();
  const city = pick(CITIES, d, 17);
  return {
    city,
    facts: {
      domain,
      name,
      industry,
      employees: lo + (bucket(d, 4) % (hi - lo + 1)),
      founded_year: now.getUTCFullYear() - 1 - (d[6] % 40),
      country: pick(COUNTRIES, d, 7),
      technologies,
      description: fill(pick(DESCRIPTIONS, d, 8), { company: name, industry: industry.toLowerCase(), city }),
      simulated: true,
    },
  };
}

/** Every open vacancy of the company (0 to 6 roles), newest first; `custom` roles are added per asked role. */
export async function simOpenVacancies(seed: string, rawDomain: string, now: Date): Promise<SimVacancy[]> {
  const domain = normalDomain(rawDomain);
  const d = await digest(seed, 'enrich-vacancies', domain);
  const count = [0, 0, 1, 1, 2, 3, 4, 6][d[0] % 8];
  const out = new Map<string, SimVacancy>();
  for (let i = 0; i < count; i++) {
    const h = await digest(seed, 'enrich-vacancy', domain, String(i));
    const role = pick(ROLES, h, 0);
    const title = pick(JOB_TITLES[role], h, 1);
    if (!out.has(title)) out.set(title, { title, role, url: `https://${domain}/careers/${slug(title)}`, posted_on: isoDay(now, h[2] % 45), simulated: true });
  }
  return sortVacancies([...out.values()]);
}

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const sortVacancies = <V extends Vacancy>(list: V[]) => list.sort((a, b) => (b.posted_on ?? '').localeCompare(a.posted_on ?? '') || a.title.localeCompare(b.title));

async function simVacancies(seed: string, domain: string, role: HiringRole, customRole: string | undefined, now: Date): Promise<SimVacancy[]> {
  const all = await simOpenVacancies(seed, domain, now);
  if (role === 'default') return all;
  if (role !== 'custom') return all.filter((v) => v.role === role);
  const wanted = customRole?.trim().toLowerCase();
  if (!wanted) return [];
  const matching = all.filter((v) => v.title.toLowerCase().includes(wanted)).map((v) => ({ ...v, role: 'custom' as const }));
  // About a third of companies also hire for exactly the role asked about (word lists cannot hold every role).
  const h = await digest(seed, 'enrich-custom-role', normalDomain(domain), wanted);
  if (bucket(h, 0) < 3_500 && !matching.some((v) => v.title.toLowerCase() === wanted)) {
    const title = titleCase(wanted);
    matching.push({ title, role: 'custom', url: `https://${normalDomain(domain)}/careers/${slug(title)}`, posted_on: isoDay(now, h[2] % 45), simulated: true });
  }
  return sortVacancies(matching);
}

const money = (millions: number) => (millions >= 1 ? `$${Number.isInteger(millions) ? millions : millions.toFixed(1)}M` : `$${Math.round(millions * 1000)}K`);

/** The company's recent signals of every kind, newest first (hiring from its vacancies). */
export async function simAllSignals(seed: string, rawDomain: string, now: Date): Promise<Signal[]> {
  const domain = normalDomain(rawDomain);
  const world = await simCompanyWorld(seed, domain, now);
  if (!world) return [];
  const { facts, city } = world;
  const out: Signal[] = [];
  const detail = (d: Record<string, unknown>) => ({ ...d, simulated: true });

  for (const v of (await simOpenVacancies(seed, domain, now)).slice(0, 3)) {
    out.push({ kind: 'hiring', title: `Hiring: ${v.title}`, happened_on: v.posted_on ?? null, source: SIM_PROVIDER, detail: detail({ role: v.role, url: v.url }) });
  }
  const f = await digest(seed, 'enrich-funding', domain);
  if (bucket(f, 0) < 2_800) {
    const round = pick(FUNDING_ROUNDS, f, 2);
    const [lo, hi] = ROUND_AMOUNTS_M[round];
    const millions = Math.round((lo + (bucket(f, 3) / 10_000) * (hi - lo)) * 2) / 2 || 0.5;
    out.push({
      kind: 'funding',
      title: `Raised ${money(millions)} ${round}`,
      happened_on: isoDay(now, 10 + (bucket(f, 5) % 340)),
      source: SIM_PROVIDER,
      detail: detail({ round, amount_usd: Math.round(millions * 1_000_000) }),
    });
  }
  const t = await digest(seed, 'enrich-tech', domain);
  if (bucket(t, 0) < 3_500) {
    for (let i = 0; i < 1 + (t[2] % 2); i++) {
      const tech = pick(TECHNOLOGIES, t, 3 + i);
      const removed = (facts.technologies ?? []).includes(tech) ? false : t[6 + i] % 3 === 0;
      out.push({
        kind: 'tech_change',
        title: `${removed ? 'Stopped using' : 'Started using'} ${tech}`,
        happened_on: isoDay(now, 5 + (t[8 + i] % 165)),
        source: SIM_PROVIDER,
        detail: detail({ technology: tech, change: removed ? 'removed' : 'added' }),
      });
    }
  }
  const n = await digest(seed, 'enrich-news', domain);
  if (bucket(n, 0) < 4_500) {
    const values = { company: facts.name ?? domain, city, industry: (facts.industry ?? '').toLowerCase(), tech: pick(TECHNOLOGIES, n, 4), role: pick(JOB_TITLES.sales, n, 5) };
    for (let i = 0; i < 1 + (n[2] % 2); i++) {
      const headline = pick(NEWS_HEADLINES, n, 6 + i);
      out.push({ kind: 'news', title: fill(headline.template, values), happened_on: isoDay(now, 1 + (n[10 + i] % 85)), source: SIM_PROVIDER, detail: detail({ category: headline.category }) });
    }
  }
  // Two picks of one list can coincide: one signal per kind and title, as lead_signals stores them.
  const unique = new Map(out.map((s) => [`${s.kind}\u0000${s.title}`, s]));
  return [...unique.values()].sort((a, b) => (b.happened_on ?? '').localeCompare(a.happened_on ?? '') || a.kind.localeCompare(b.kind) || a.title.localeCompare(b.title));
}

/** `fail-` and `slow-` domains (see the header); logs the refusal and throws, or returns to let the call go on. */
async function injectFaults(ctx: EnrichmentContext, domain: string, operation: EnrichmentOperation) {
  const log = (outcome: CallOutcome) => logEnrichmentCall(ctx, { provider: SIM_PROVIDER, operation, domain, outcome, costMicros: 0, simulated: true });
  if (domain.startsWith('fail-')) {
    await log('error');
    throw new EnrichmentFailed(`sim: simulated provider failure for ${domain} (fail- domain)`, SIM_PROVIDER);
  }
  if (!domain.startsWith('slow-')) return;
  const [last] = await ctx.db
    .select({ outcome: enrichmentCalls.outcome, at: enrichmentCalls.at })
    .from(enrichmentCalls)
    .where(and(eq(enrichmentCalls.orgId, ctx.orgId), eq(enrichmentCalls.provider, SIM_PROVIDER), eq(enrichmentCalls.domain, domain), eq(enrichmentCalls.operation, operation)))
    .orderBy(desc(enrichmentCalls.at), desc(enrichmentCalls.id))
    .limit(1);
  const waited = last?.outcome === 'rate_limited' && ctx.now.getTime() - last.at.getTime() >= SIM_RETRY_AFTER_SEC * 1000;
  if (waited) return;
  await log('rate_limited');
  throw new EnrichmentRetryLater(SIM_RETRY_AFTER_SEC, `sim: ${domain} is rate-limited (slow- domain); retry after ${SIM_RETRY_AFTER_SEC} s`);
}

export function createSimEnrichment(seed: string): EnrichmentPort {
  const done = (ctx: EnrichmentContext, operation: EnrichmentOperation, domain: string, found: boolean) =>
    logEnrichmentCall(ctx, { provider: SIM_PROVIDER, operation, domain, outcome: found ? 'found' : 'empty', costMicros: 0, simulated: true });
  return {
    kind: 'sim',
    async company(ctx, rawDomain) {
      const domain = normalDomain(rawDomain);
      await injectFaults(ctx, domain, 'company');
      const world = await simCompanyWorld(seed, domain, ctx.now);
      await done(ctx, 'company', domain, world !== null);
      return world?.facts ?? null;
    },
    async vacancies(ctx, rawDomain, role, customRole) {
      const domain = normalDomain(rawDomain);
      await injectFaults(ctx, domain, 'vacancies');
      const known = (await simCompanyWorld(seed, domain, ctx.now)) !== null;
      const list = known ? await simVacancies(seed, domain, role, customRole, ctx.now) : [];
      await done(ctx, 'vacancies', domain, list.length > 0);
      return list;
    },
    async signals(ctx, rawDomain, kinds) {
      const domain = normalDomain(rawDomain);
      await injectFaults(ctx, domain, 'signals');
      const wanted = new Set<SignalKind>(kinds);
      const list = (await simAllSignals(seed, domain, ctx.now)).filter((s) => wanted.has(s.kind));
      await done(ctx, 'signals', domain, list.length > 0);
      return list;
    },
  };
}
