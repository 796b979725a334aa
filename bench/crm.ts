// `npm run bench:crm`: the CRM sync API on 100,000 leads in the real PostgreSQL, through the production driver
// (Neon serverless over the local WebSocket relay). Needs BENCH_DATABASE_URL or TEST_DATABASE_URL (a server we may
// create and drop a database on). Prints:
// - a full sync at limit 200: time of the first and the last page and the total; then the first and the last page
//   measured again (medians), with the ratio last/first, which keyset paging keeps near 1 (must be ≤ 1.2); an
//   OFFSET query for the same last page is shown beside it for contrast;
// - an incremental run (updated_since = the full run's start) after 100 changes: leads returned and examined
//   (must both be 100), and the plan's rows read from `leads`.
import { performance } from 'node:perf_hooks';
import { gte, sql } from 'drizzle-orm';
import { WebSocket } from 'ws';
import { leads } from '../schema';
import { loadConfig } from '../lib/config';
import { UPDATED_SINCE_SKEW_MS } from '../lib/crm/change_clock';
import { listCrmLeads } from '../lib/crm/list_leads';
import { updateCrmLead } from '../lib/crm/update_lead';
import { selectCrmLeads, type CrmTenant } from '../lib/crm/view';
import { openNeon } from '../lib/db/neon';
import { rows } from '../lib/db/types';
import { createMemoryLimits } from '../lib/limits/memory';
import { systemClock } from '../lib/limits/port';
import { createCampaign, createClient, createKey, createOrg } from '../lib/orgs/admin';
import { dropDatabase, migrateThroughNeon, recreateDatabase } from '../test/helpers/it_database';
import { startWsRelay } from '../test/infra/ws_relay';
import { fmt, table } from './lib';

const LEADS = Number(process.env.BENCH_LEADS ?? 100_000);
const PAGE = 200;
const REPEATS = Number(process.env.BENCH_REPEATS ?? 25);
const CHANGES = 100;

const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!adminUrl) {
  console.error('bench:crm needs BENCH_DATABASE_URL or TEST_DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/postgres');
  process.exit(2);
}
const target = new URL(adminUrl);
const relay = await startWsRelay({ allow: [`${target.hostname}:${target.port || 5432}`] });
const dbName = `ris_bench_crm_${process.pid}`;
const url = await recreateDatabase(adminUrl, dbName, relay.port);
await migrateThroughNeon(url, relay.port);
const database = openNeon(url, { webSocketConstructor: WebSocket, wsProxy: `127.0.0.1:${relay.port}/v1`, insecure: true });
const db = database.db;
const config = loadConfig({ LOG_LEVEL: 'error' });
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
  await db.execute(sql`
    insert into crm_notes (org_id, lead_id, at, by, text)
    select org_id, id, updated_at, 'seed', 'called' from leads where org_id = ${org.id}::uuid and reply_count = 1 and random() < 0.1`);
  await db.execute(sql`analyze`);
  const keys = await Promise.all([0, 1].map((i) => createKey(db, org.id, { name: `crm ${i}`, scopes: ['crm.read', 'crm.write'], client_id: client.id })));
  console.log(`seeded ${LEADS} leads (+ thread rows, notes) in ${fmt((performance.now() - t0) / 1000)} s; database ${dbName} via the Neon driver`);

  const tenant: CrmTenant = { orgId: org.id, clientId: client.id };
  const page = async (cursor?: string, since?: string) => {
    const start = performance.now();
    const p = await listCrmLeads({ db, tenant, input: { limit: PAGE, cursor, updated_since: since }, portalUrl: config.portalUrl });
    return { ...p, ms: performance.now() - start };
  };

  // ---- full sync ----
  const runStart = new Date().toISOString();
  const times: number[] = [];
  const cursors: Array<string | undefined> = [undefined];
  let returned = 0;
  const full0 = performance.now();
  for (let cursor: string | undefined; ; ) {
    const p = await page(cursor);
    times.push(p.ms);
    returned += p.leads.length;
    if (!p.has_more) break;
    cursor = p.next_cursor!;
    cursors.push(cursor);
  }
  const totalMs = performance.now() - full0;
  const [{ n: expectedVisible }] = await rows<{ n: number }>(db, sql`select count(*)::int as n from leads where org_id = ${org.id}::uuid and classification in ('hot','warm','cold')`);
  if (returned !== expectedVisible) failures.push(`full sync returned ${returned} leads, expected ${expectedVisible}`);

  // ---- first vs last page, measured again (alternating, medians), and OFFSET for contrast ----
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const lastCursor = cursors[cursors.length - 1];
  const lastAfter = lastCursor ? (JSON.parse(Buffer.from(lastCursor, 'base64url').toString()) as { after: string }).after : undefined;
  const firstRuns: number[] = [];
  const lastRuns: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    firstRuns.push((await page()).ms);
    lastRuns.push((await page(lastCursor)).ms);
  }
  const offsetRuns: number[] = [];
  const lastOffset = (cursors.length - 1) * PAGE;
  for (let i = 0; i < Math.min(REPEATS, 10); i++) {
    const s = performance.now();
    await selectCrmLeads(db, tenant, { limit: PAGE + 1 }).offset(lastOffset);
    offsetRuns.push(performance.now() - s);
  }
  const ratio = median(lastRuns) / median(firstRuns);
  if (ratio > 1.2) failures.push(`last page costs ${fmt(ratio, 2)}× the first (limit 1.2×)`);

  console.log(`\nfull sync, limit ${PAGE}: ${times.length} pages, ${returned} leads, total ${fmt(totalMs / 1000, 2)} s (${fmt(totalMs / times.length)} ms/page)`);
  console.log(
    table([
      ['page', 'in the run (ms)', `median of ${REPEATS} (ms)`, 'vs first page'],
      ['first', fmt(times[0]), fmt(median(firstRuns)), '1.00×'],
      ['last', fmt(times[times.length - 1]), fmt(median(lastRuns)), `${fmt(ratio, 2)}×  ${ratio <= 1.2 ? 'PASS (≤ 1.2×)' : 'FAIL (> 1.2×)'}`],
      [`OFFSET ${lastOffset} (contrast, not used)`, '-', fmt(median(offsetRuns)), `${fmt(median(offsetRuns) / median(firstRuns), 2)}×`],
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
  });
  const limits = createMemoryLimits(systemClock);
  for (const [i, { id }] of visibleIds.entries()) {
    const auth = authOf(keys[i % 2]); // 60 CRM writes per minute per key: two keys carry the 100 changes
    await updateCrmLead({ deps: { db, limits, auth, now: new Date(), portalUrl: config.portalUrl }, leadId: id, input: { next_action: { date: '2026-07-01', note: `bench ${i}` } } });
  }
  let incReturned = 0;
  let incExamined = 0;
  let incPages = 0;
  const inc0 = performance.now();
  for (let cursor: string | undefined; ; ) {
    const p = await page(cursor, cursor ? undefined : runStart);
    incReturned += p.leads.length;
    incExamined += p.examined;
    incPages++;
    if (!p.has_more) break;
    cursor = p.next_cursor!;
  }
  const incMs = performance.now() - inc0;
  if (incReturned !== CHANGES || incExamined !== CHANGES) failures.push(`incremental run returned ${incReturned} and examined ${incExamined}, expected ${CHANGES} each`);

  // What the database itself read from `leads` (EXPLAIN ANALYZE of the statements the pages run).
  const floor = new Date(Date.parse(runStart) - UPDATED_SINCE_SKEW_MS);
  const incQuery = selectCrmLeads(db, tenant, { where: gte(leads.updatedAt, floor), limit: PAGE + 1 });
  const lastQuery = selectCrmLeads(db, tenant, { afterId: lastAfter, limit: PAGE + 1 });
  console.log(`\nincremental run (updated_since = the full run's start) after ${CHANGES} changes: ${incPages} page(s), ${fmt(incMs)} ms`);
  console.log(`  leads returned ${incReturned}, examined ${incExamined} of ${LEADS}  ${incReturned === CHANGES && incExamined === CHANGES ? 'PASS' : 'FAIL'}`);
  for (const s of await leadScans(incQuery.toSQL())) console.log(`  plan: ${s}`);
  console.log(`full sync, last page:`);
  for (const s of await leadScans(lastQuery.toSQL())) console.log(`  plan: ${s}`);
} finally {
  await database.close();
  await dropDatabase(adminUrl, dbName, relay.port).catch((err) => console.error('could not drop', dbName, err));
  await relay.close();
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
