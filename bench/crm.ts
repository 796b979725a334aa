// `npm run bench:crm`: the CRM sync API on 100,000 leads. Embedded PGlite by default; with BENCH_POSTGRES_URL
// (BENCH_DATABASE_URL is accepted too) the real PostgreSQL through the production driver (Neon serverless over the
// local WebSocket relay), and with BENCH_REDIS_URL the Upstash clients over the REST bridge. Prints:
// - a full sync at limit 200 through the whole HTTP stack (auth, limits, validation): pages, total, ms per page,
//   DB and Redis round trips per page;
// - the first and the last page measured again (medians), on the verb alone (the baseline) and through the API,
//   with the ratio last/first, which keyset paging keeps near 1 (must be ≤ 1.2); an OFFSET query for the same
//   last page is shown beside it for contrast;
// - an incremental run (updated_since = the full run's start) after 100 changes: leads returned and examined
//   (must both be 100), and the plan's rows read from `leads`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { gte, sql } from 'drizzle-orm';
import { leads } from '../schema';
import { loadConfig } from '../lib/config';
import { UPDATED_SINCE_SKEW_MS } from '../lib/crm/change_clock';
import { listCrmLeads } from '../lib/crm/list_leads';
import { updateCrmLead } from '../lib/crm/update_lead';
import { selectCrmLeads, type CrmTenant } from '../lib/crm/view';
import { rows } from '../lib/db/types';
import { createCampaign, createClient, createKey, createOrg } from '../lib/orgs/admin';
import { createNodeServices } from '../lib/runtime/node';
import { createNodeApp } from '../scripts/node_server';
import { benchAdapters } from './adapters';
import { fmt, table } from './lib';

const LEADS = Number(process.env.BENCH_LEADS ?? 100_000);
const PAGE = 200;
const REPEATS = Number(process.env.BENCH_REPEATS ?? 25);
const CHANGES = 100;

if (process.env.BENCH_DATABASE_URL) process.env.BENCH_POSTGRES_URL ??= process.env.BENCH_DATABASE_URL;
const adapters = await benchAdapters('crm');
const dataDir = mkdtempSync(join(tmpdir(), 'ris-bench-crm-'));
// TRUST_PROXY lets each request carry its own client address, so the per-IP limit is counted, not hit.
const config = loadConfig({ ...adapters.env, DATA_DIR: dataDir, LOG_LEVEL: 'error', TRUST_PROXY: 'true' });
const services = await createNodeServices(config);
const db = services.db;
const app = createNodeApp(services);
const failures: string[] = [];

try {
  // ---- seed: one org, one client, 10 campaigns, LEADS leads (60% visible: hot/warm/cold), changed a day+ ago ----
  const t0 = performance.now();
  const org = await createOrg(db, { name: 'bench org', features: { crm: true } });
  const client = await createClient(db, org.id, { name: 'bench client' });
  const campaignIds: string[] = [];
  for (let i = 0; i < 10; i++) campaignIds.push((await createCampaign(db, org.id, { name: `campaign ${i}`, client_id: client.id }, new Date())).id);
  const campaignArray = sql.raw(`array[${campaignIds.map((id) => `'${id}'::uuid`).join(',')}]`);
  await db.execute(sql`
    insert into leads (org_id, campaign_id, email, name, classification, reply_count, last_reply_at, phase, updated_at, created_at)
    select ${org.id}::uuid, (${campaignArray})[1 + g % 10], 'lead' || g || '@company' || (g % 5000) || '.com', 'Lead ' || g,
           (array['hot','warm','cold','not_interested','ooo'])[1 + g % 5], 1,
           now() - interval '2 days' - (g || ' seconds')::interval,
           (array['new','contacted','discovery','proposal'])[1 + g % 4],
           now() - interval '1 day' - (g || ' seconds')::interval,
           now() - interval '2 days' - (g || ' seconds')::interval
    from generate_series(1, ${LEADS}) g`);
  await db.execute(sql`
    insert into thread_messages (org_id, lead_id, role, content, at)
    select org_id, id, 'reply', 'Thanks, tell me more about pricing.', last_reply_at from leads where org_id = ${org.id}::uuid`);
  // As the write paths keep it (lib/ingest, lib/sending): the conversation's latest message.
  await db.execute(sql`
    update leads set last_activity_at = (select max(tm.at) from thread_messages tm where tm.lead_id = leads.id) where org_id = ${org.id}::uuid`);
  await db.execute(sql`
    insert into crm_notes (org_id, lead_id, at, by, text)
    select org_id, id, updated_at, 'seed', 'called' from leads where org_id = ${org.id}::uuid and reply_count = 1 and random() < 0.1`);
  await db.execute(sql`analyze`);
  const keys = await Promise.all([0, 1].map((i) => createKey(db, org.id, { name: `crm ${i}`, scopes: ['crm.read', 'crm.write'], client_id: client.id, rate_limit_per_minute: 1000 })));
  console.log(`seeded ${LEADS} leads (+ thread rows, notes) in ${fmt((performance.now() - t0) / 1000)} s; ${adapters.label}; ${new Date().toISOString()}`);

  const tenant: CrmTenant = { orgId: org.id, clientId: client.id };
  type Page = { leads: unknown[]; next_cursor: string | null; has_more: boolean; ms: number; db: number; redis: number };
  /** The baseline: the verb alone, no HTTP, auth, limits or validation. */
  const verbPage = async (cursor?: string, since?: string) => {
    const start = performance.now();
    const p = await listCrmLeads({ db, tenant, input: { limit: PAGE, cursor, updated_since: since }, portalUrl: config.portalUrl });
    return { ...p, ms: performance.now() - start };
  };
  let calls = 0;
  /** The same page through the whole stack, in process, with the DB statements and Redis requests it caused. */
  const apiPage = async (cursor?: string, since?: string): Promise<Page> => {
    const n = ++calls;
    const q = new URLSearchParams({ limit: String(PAGE), ...(cursor ? { cursor } : {}), ...(since ? { updated_since: since } : {}) });
    const headers = { 'x-service-key': keys[n % 2].secret, 'x-forwarded-for': `10.9.${(n >> 8) & 255}.${n & 255}` };
    const redis0 = await adapters.redisRequests();
    const [db0, start] = [services.dbStats.queries, performance.now()];
    const res = await app.fetch(new Request(`http://bench.local/v1/crm/leads?${q}`, { headers }));
    const body = (await res.json()) as Omit<Page, 'ms' | 'db' | 'redis'>;
    const ms = performance.now() - start;
    if (res.status !== 200) throw new Error(`GET /v1/crm/leads answered ${res.status}: ${JSON.stringify(body)}`);
    return { ...body, ms, db: services.dbStats.queries - db0, redis: (await adapters.redisRequests()) - redis0 };
  };

  // ---- full sync through the API ----
  const runStart = new Date().toISOString();
  const times: number[] = [];
  const cursors: Array<string | undefined> = [undefined];
  let returned = 0;
  let dbTrips = 0;
  let redisTrips = 0;
  const full0 = performance.now();
  for (let cursor: string | undefined; ; ) {
    const p = await apiPage(cursor);
    times.push(p.ms);
    returned += p.leads.length;
    dbTrips += p.db;
    redisTrips += p.redis;
    if (!p.has_more) break;
    cursor = p.next_cursor!;
    cursors.push(cursor);
  }
  const totalMs = performance.now() - full0;
  const [{ n: expectedVisible }] = await rows<{ n: number }>(db, sql`select count(*)::int as n from leads where org_id = ${org.id}::uuid and classification in ('hot','warm','cold')`);
  if (returned !== expectedVisible) failures.push(`full sync returned ${returned} leads, expected ${expectedVisible}`);

  // ---- first vs last page, measured again (alternating, medians), verb and API, and OFFSET for contrast ----
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const lastCursor = cursors[cursors.length - 1];
  const lastAfter = lastCursor ? (JSON.parse(Buffer.from(lastCursor, 'base64url').toString()) as { after: string }).after : undefined;
  const runs = { verbFirst: [] as number[], verbLast: [] as number[], apiFirst: [] as number[], apiLast: [] as number[] };
  for (let i = 0; i < REPEATS; i++) {
    runs.verbFirst.push((await verbPage()).ms);
    runs.apiFirst.push((await apiPage()).ms);
    runs.verbLast.push((await verbPage(lastCursor)).ms);
    runs.apiLast.push((await apiPage(lastCursor)).ms);
  }
  const offsetRuns: number[] = [];
  const lastOffset = (cursors.length - 1) * PAGE;
  for (let i = 0; i < Math.min(REPEATS, 10); i++) {
    const s = performance.now();
    await selectCrmLeads(db, tenant, { limit: PAGE + 1 }).offset(lastOffset);
    offsetRuns.push(performance.now() - s);
  }
  const m = { verbFirst: median(runs.verbFirst), verbLast: median(runs.verbLast), apiFirst: median(runs.apiFirst), apiLast: median(runs.apiLast) };
  const ratio = m.verbLast / m.verbFirst;
  const apiRatio = m.apiLast / m.apiFirst;
  if (ratio > 1.2) failures.push(`last page costs ${fmt(ratio, 2)}× the first on the verb (limit 1.2×)`);
  if (apiRatio > 1.2) failures.push(`last page costs ${fmt(apiRatio, 2)}× the first through the API (limit 1.2×)`);
  const verdict = (r: number) => `${fmt(r, 2)}×  ${r <= 1.2 ? 'PASS (≤ 1.2×)' : 'FAIL (> 1.2×)'}`;

  console.log(
    `\nfull sync through the API, limit ${PAGE}: ${times.length} pages, ${returned} leads, total ${fmt(totalMs / 1000, 2)} s (${fmt(totalMs / times.length)} ms/page), ` +
      `DB round trips/page ${fmt(dbTrips / times.length, 2)}, Redis round trips/page ${fmt(redisTrips / times.length, 2)}`,
  );
  console.log(
    table([
      ['page', 'in the full sync (ms)', `verb alone, median of ${REPEATS} (ms)`, `API, median of ${REPEATS} (ms)`, 'API / verb', 'last / first (verb)', 'last / first (API)'],
      ['first', fmt(times[0]), fmt(m.verbFirst), fmt(m.apiFirst), `${fmt(m.apiFirst / m.verbFirst, 2)}×`, '1.00×', '1.00×'],
      ['last', fmt(times[times.length - 1]), fmt(m.verbLast), fmt(m.apiLast), `${fmt(m.apiLast / m.verbLast, 2)}×`, verdict(ratio), verdict(apiRatio)],
      [`OFFSET ${lastOffset} (contrast, not used)`, '-', fmt(median(offsetRuns)), '-', '-', `${fmt(median(offsetRuns) / m.verbFirst, 2)}×`, '-'],
    ]),
  );

  // ---- incremental run after 100 changes ----
  const visibleIds = await rows<{ id: string }>(
    db,
    sql`select l.id from leads l where l.org_id = ${org.id}::uuid and l.classification in ('hot','warm','cold') order by random() limit ${CHANGES}`,
  );
  const authOf = (k: (typeof keys)[number]) => ({
    keyId: k.key.id,
    keyName: k.key.name,
    prefix: 'live' as const,
    orgId: org.id,
    orgName: org.name,
    features: org.features,
    clientId: client.id,
    scopes: k.key.scopes,
    autonomyLevel: 0,
    rateLimitPerMinute: 100,
    dailyCreditLimit: 100,
    readOnly: false,
    kind: 'api' as const,
    orgDemo: false,
  });
  for (const [i, { id }] of visibleIds.entries()) {
    const auth = authOf(keys[i % 2]); // 60 CRM writes per minute per key: two keys carry the 100 changes
    await updateCrmLead({ deps: { db, limits: services.limits, auth, now: new Date(), portalUrl: config.portalUrl }, leadId: id, input: { next_action: { date: '2026-07-01', note: `bench ${i}` } } });
  }
  let incReturned = 0;
  let incExamined = 0;
  let incPages = 0;
  const inc0 = performance.now();
  for (let cursor: string | undefined; ; ) {
    const p = await verbPage(cursor, cursor ? undefined : runStart);
    incReturned += p.leads.length;
    incExamined += p.examined;
    incPages++;
    if (!p.has_more) break;
    cursor = p.next_cursor!;
  }
  const incMs = performance.now() - inc0;
  if (incReturned !== CHANGES || incExamined !== CHANGES) failures.push(`incremental run returned ${incReturned} and examined ${incExamined}, expected ${CHANGES} each`);
  // The same incremental run as a sync job makes it: through the API.
  const api = { returned: 0, pages: 0, db: 0, redis: 0, ms: 0 };
  for (let cursor: string | undefined; ; ) {
    const p = await apiPage(cursor, cursor ? undefined : runStart);
    Object.assign(api, { returned: api.returned + p.leads.length, pages: api.pages + 1, db: api.db + p.db, redis: api.redis + p.redis, ms: api.ms + p.ms });
    if (!p.has_more) break;
    cursor = p.next_cursor!;
  }
  if (api.returned !== CHANGES) failures.push(`incremental run through the API returned ${api.returned}, expected ${CHANGES}`);

  // What the database itself read from `leads` (EXPLAIN ANALYZE of the statements the pages run).
  const floor = new Date(Date.parse(runStart) - UPDATED_SINCE_SKEW_MS);
  const incQuery = selectCrmLeads(db, tenant, { where: gte(leads.updatedAt, floor), limit: PAGE + 1 });
  const lastQuery = selectCrmLeads(db, tenant, { afterId: lastAfter, limit: PAGE + 1 });
  console.log(`\nincremental run (updated_since = the full run's start) after ${CHANGES} changes: ${incPages} page(s), ${fmt(incMs)} ms`);
  console.log(`  leads returned ${incReturned}, examined ${incExamined} of ${LEADS}  ${incReturned === CHANGES && incExamined === CHANGES ? 'PASS' : 'FAIL'}`);
  console.log(`  through the API: ${api.returned} leads in ${api.pages} page(s), ${fmt(api.ms)} ms, DB round trips/page ${fmt(api.db / api.pages, 2)}, Redis round trips/page ${fmt(api.redis / api.pages, 2)}`);
  for (const s of await leadScans(incQuery.toSQL())) console.log(`  plan: ${s}`);
  console.log(`full sync, last page:`);
  for (const s of await leadScans(lastQuery.toSQL())) console.log(`  plan: ${s}`);
} finally {
  await services.close();
  await adapters.close();
  rmSync(dataDir, { recursive: true, force: true });
}

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; 'Actual Rows': number; 'Rows Removed by Filter'?: number; Plans?: PlanNode[] };
/** The scans of `leads` in the statement's EXPLAIN ANALYZE: index used and rows read. */
async function leadScans(q: { sql: string; params: unknown[] }): Promise<string[]> {
  const pool = (db as unknown as { $client: { query(text: string, params: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }> } }).$client;
  const [plan] = (await pool.query(`explain (analyze, format json) ${q.sql}`, q.params)).rows[0]['QUERY PLAN'] as Array<{ Plan: PlanNode }>;
  const walk = (node: PlanNode): PlanNode[] => [...(node['Relation Name'] === 'leads' ? [node] : []), ...(node.Plans ?? []).flatMap(walk)];
  return walk(plan.Plan).map((n) => `${n['Node Type']} on leads${n['Index Name'] ? ` using ${n['Index Name']}` : ''}: ${n['Actual Rows']} rows kept, ${n['Rows Removed by Filter'] ?? 0} removed by filter`);
}

if (failures.length > 0) {
  console.log(`\nFAIL:\n- ${failures.join('\n- ')}`);
  process.exitCode = 1;
} else {
  console.log('\nall checks passed');
}
