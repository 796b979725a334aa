// `npm run bench:runs`: a formula run over 10,000 pool leads on embedded PGlite (BENCH_POSTGRES_URL: the production
// driver to this machine's PostgreSQL, as the other benchmarks). Prints, measured in the same run:
// - the run of three free expression columns (seniority, personalised first line, timezone) from confirm to done,
//   driven by the job runner in rounds: rows (leads) per second, beside the pure expression evaluation of the same
//   three formulas over the same rows in memory (the baseline), and their ratio;
// - the same for a paid question column (1 credit per cell: a ledger row per cell written);
// - DB round trips per lead (services.dbStats.queries over the run) and peak memory (RSS, heap used).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { asc, eq, sql } from 'drizzle-orm';
import { jobHandlers } from '../functions/jobs/handlers';
import { loadConfig } from '../lib/config';
import { evaluateExpression } from '../lib/formulas/evaluate';
import { LIBRARY_BY_KEY } from '../lib/formulas/library';
import { createClient, createKey, createOrg } from '../lib/orgs/admin';
import { drainJobs } from '../lib/queue/runner';
import { createNodeServices } from '../lib/runtime/node';
import { createNodeApp } from '../scripts/node_server';
import { enrichRuns, organizations, poolLeads, recipes, recipeVersions } from '../schema';
import { benchAdapters } from './adapters';
import { table } from './lib';

const fmt = (n: number) => n.toLocaleString('en-US');

const LEADS = Number(process.env.BENCH_LEADS ?? 10_000);
const EXPRESSIONS = ['seniority_from_title', 'personalised_first_line', 'country_timezone'];

const adapters = await benchAdapters('runs');
const dataDir = mkdtempSync(join(tmpdir(), 'ris-bench-runs-'));
const config = loadConfig({ ...adapters.env, DATA_DIR: dataDir, LOG_LEVEL: 'error', TRUST_PROXY: 'true' });
const services = await createNodeServices(config);
const { db } = services;
const app = createNodeApp(services);

const peak = { rss: 0, heap: 0 };
const sample = () => {
  const m = process.memoryUsage();
  peak.rss = Math.max(peak.rss, m.rss);
  peak.heap = Math.max(peak.heap, m.heapUsed);
};
const sampler = setInterval(sample, 25);

try {
  const org = await createOrg(db, { name: 'bench org', features: { agency_tools: true, studio: true } });
  await db.update(organizations).set({ credits: 1_000_000 }).where(eq(organizations.id, org.id));
  const client = await createClient(db, org.id, { name: 'bench client' });
  const { secret } = await createKey(db, org.id, { name: 'bench', kind: 'agency', rate_limit_per_minute: 100_000, daily_credit_limit: 1_000_000 });
  await db.execute(sql`
    insert into pool_leads (org_id, client_id, email, first_name, last_name, company, domain, title, country, status, created_at)
    select ${org.id}::uuid, ${client.id}::uuid, 'lead' || g || '@co' || g || '.example.com', (array['ANNA','john','Marie','pieter'])[1 + g % 4], 'Doe',
           'Company ' || g || (array[' GmbH',' Inc.',' B.V.',''])[1 + g % 4], 'co' || g || '.example.com',
           (array['VP Sales','Head of Marketing','Software Engineer','CEO','Account Manager'])[1 + g % 5],
           (array['Germany','United States','Netherlands','France'])[1 + g % 4], 'new', now() - (g || ' seconds')::interval
    from generate_series(1, ${LEADS}) g`);

  const recipeWith = async (name: string, steps: Record<string, unknown>[]) => {
    const [r] = await db.insert(recipes).values({ orgId: org.id, clientId: client.id, name, liveVersion: 1 }).returning();
    await db.insert(recipeVersions).values({ recipeId: r.id, version: 1, definition: { steps }, createdBy: 'bench' });
    return r.id;
  };
  const call = async (path: string, body: unknown) => {
    const res = await app.request(path, { method: 'POST', headers: { 'x-service-key': secret, 'content-type': 'application/json', 'x-forwarded-for': '10.1.1.1' }, body: JSON.stringify(body) });
    const json = (await res.json()) as Record<string, any>;
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };

  const measureRun = async (recipeId: string) => {
    const path = `/v1/agency/clients/${client.id}/recipes/${recipeId}/run`;
    const p = await call(path, { confirm_large: true });
    const q0 = services.dbStats.queries;
    const t0 = performance.now();
    const c = await call(path, { confirm_large: true, confirm_token: p.confirm_token });
    await drainJobs(services, jobHandlers, { maxRounds: 10_000 });
    const ms = performance.now() - t0;
    const queries = services.dbStats.queries - q0;
    const [run] = await db.select().from(enrichRuns).where(eq(enrichRuns.id, c.run.id));
    if (run.status !== 'done' || run.processed !== LEADS) throw new Error(`run ended ${run.status} at ${run.processed}/${LEADS}`);
    return { ms, queries, run };
  };

  // The baseline: the same formulas over the same rows, in memory, no database.
  const rows = await db.select().from(poolLeads).where(eq(poolLeads.clientId, client.id)).orderBy(asc(poolLeads.createdAt));
  const now = new Date();
  const pure = (keys: string[]) => {
    const sources = keys.map((k) => String(LIBRARY_BY_KEY.get(k)!.spec.expression));
    const t0 = performance.now();
    let n = 0;
    for (const lead of rows) for (const s of sources) if (evaluateExpression(s, lead, now) !== null) n++;
    return { ms: performance.now() - t0, cells: n };
  };
  pure(EXPRESSIONS); // warm the parse cache and the JIT, as the run's first round does
  const base = pure(EXPRESSIONS);

  const free = await measureRun(await recipeWith('free columns', EXPRESSIONS.map((f) => ({ type: 'formula', column_key: f, formula: f }))));
  const paid = await measureRun(await recipeWith('paid question', [{ type: 'question', column_key: 'sells_software', question: 'Does {company} sell software?', output_type: 'boolean' }]));
  sample();

  const perSec = (ms: number) => LEADS / (ms / 1000);
  console.log(`formula runs over ${fmt(LEADS)} pool leads (${adapters.label})\n`);
  console.log(table([
    ['measure', 'leads/s', 'cells written', 'credits', 'DB round trips / lead', 'vs pure evaluation'],
    ['pure evaluation, 3 expressions (baseline, in memory)', fmt(Math.round(perSec(base.ms))), fmt(base.cells), '0', '0', '1.00×'],
    ['run: 3 expression columns (free)', fmt(Math.round(perSec(free.ms))), fmt(free.run.written), fmt(free.run.credits), (free.queries / LEADS).toFixed(3), `${(free.ms / base.ms).toFixed(1)}× slower`],
    ['run: 1 question column (1 credit per cell)', fmt(Math.round(perSec(paid.ms))), fmt(paid.run.written), fmt(paid.run.credits), (paid.queries / LEADS).toFixed(3), `${(paid.ms / base.ms).toFixed(1)}× slower`],
  ]));
  console.log(`\npeak memory: RSS ${fmt(Math.round(peak.rss / 1048576))} MB, heap used ${fmt(Math.round(peak.heap / 1048576))} MB`);
} finally {
  clearInterval(sampler);
  await services.close();
  await adapters.close();
  rmSync(dataDir, { recursive: true, force: true });
}
