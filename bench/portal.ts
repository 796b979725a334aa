// `npm run bench:portal`: the client portal's lead list page for a client with 10,000 leads, beside the CRM API's
// JSON list of the same leads, in one run on one app (issue 19). Server time in process (app.fetch, the whole stack:
// session lookup or key auth and limits, the query, rendering, the body read), interleaved so drift hits every
// variant alike, after a warm-up. Variants: the page's first page, a page filtered by classification, a deep page
// (OFFSET paging: the page number is the user's), and GET /v1/crm/leads at the same page size (first page; a keyset
// page at the same depth beside it). Prints p50/p99, DB round trips per request and the ratio page / JSON, then the
// portal query's plan (EXPLAIN ANALYZE). Embedded PGlite by default; BENCH_POSTGRES_URL / BENCH_REDIS_URL switch to
// the production adapters as in bench/crm.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../lib/config';
import { createCampaign, createClient, createKey, createOrg } from '../lib/orgs/admin';
import { listCrmLeads } from '../lib/crm/list_leads';
import { listPortalLeads, PORTAL_PAGE_SIZE, portalPageIds } from '../lib/portal/leads';
import { createNodeServices } from '../lib/runtime/node';
import { inviteWebUser } from '../lib/web/users';
import { createNodeApp } from '../scripts/node_server';
import { benchAdapters } from './adapters';
import { fmt, table } from './lib';

const LEADS = Number(process.env.BENCH_LEADS ?? 10_000);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 100);
const WARMUP = 10;
const DEEP_PAGE = Number(process.env.BENCH_DEEP_PAGE ?? 150);
const ORIGIN = 'http://bench.local';

if (process.env.BENCH_DATABASE_URL) process.env.BENCH_POSTGRES_URL ??= process.env.BENCH_DATABASE_URL;
const adapters = await benchAdapters('portal');
const dataDir = mkdtempSync(join(tmpdir(), 'ris-bench-portal-'));
// TRUST_PROXY lets each request carry its own client address, so the per-IP limit is counted, not hit.
const config = loadConfig({ ...adapters.env, DATA_DIR: dataDir, LOG_LEVEL: 'error', TRUST_PROXY: 'true' });
const services = await createNodeServices(config);
const db = services.db;
const app = createNodeApp(services);
const failures: string[] = [];
let cookie = '';
let crmKey = '';

try {
  // ---- seed: one org, one client, 10 campaigns, LEADS leads all visible to the client (hot/warm/cold), each with
  // a reply and, for two in three, our answer after it; activity spread over 30 days; notes on one in ten ----
  const t0 = performance.now();
  const org = await createOrg(db, { name: 'bench org', features: { crm: true } });
  const client = await createClient(db, org.id, { name: 'bench client' });
  const campaignIds: string[] = [];
  for (let i = 0; i < 10; i++) campaignIds.push((await createCampaign(db, org.id, { name: `campaign ${i}`, client_id: client.id }, new Date())).id);
  const campaignArray = sql.raw(`array[${campaignIds.map((id) => `'${id}'::uuid`).join(',')}]`);
  await db.execute(sql`
    insert into leads (org_id, campaign_id, email, name, classification, reply_count, last_reply_at, phase, updated_at, created_at)
    select ${org.id}::uuid, (${campaignArray})[1 + g % 10], 'lead' || g || '@company' || (g % 5000) || '.com', 'Lead ' || g,
           (array['hot','warm','cold'])[1 + g % 3], 1,
           now() - interval '1 hour' - ((g * 7919) % ${LEADS} || ' minutes')::interval * 4,
           (array['new','contacted','discovery','proposal'])[1 + g % 4],
           now() - interval '1 day', now() - interval '31 days'
    from generate_series(1, ${LEADS}) g`);
  await db.execute(sql`
    insert into thread_messages (org_id, lead_id, role, content, at)
    select org_id, id, 'reply', 'Thanks, tell me more about pricing.', last_reply_at from leads where org_id = ${org.id}::uuid`);
  await db.execute(sql`
    insert into thread_messages (org_id, lead_id, role, content, at)
    select org_id, id, 'outbound', 'Happy to: here is our pricing.', last_reply_at + interval '2 hours'
    from leads where org_id = ${org.id}::uuid and hashtext(id::text) % 3 <> 0`);
  // As the write paths keep it (lib/ingest, lib/sending): the conversation's latest message.
  await db.execute(sql`
    update leads set last_activity_at = (select max(tm.at) from thread_messages tm where tm.lead_id = leads.id) where org_id = ${org.id}::uuid`);
  await db.execute(sql`
    insert into crm_notes (org_id, lead_id, at, by, text)
    select org_id, id, updated_at, 'seed', 'called' from leads where org_id = ${org.id}::uuid and hashtext(id::text) % 10 = 0`);
  // As autovacuum would have by now: statistics, and the visibility map that lets index-only scans skip the heap.
  await db.execute(sql`vacuum analyze`);
  crmKey = (await createKey(db, org.id, { name: 'crm', scopes: ['crm.read'], client_id: client.id, rate_limit_per_minute: 1_000_000 })).secret;

  // A portal user with a live session, signed in through the real link (GET landing, POST sign-in).
  const invited = await inviteWebUser({ db, now: services.clock.now(), target: { kind: 'portal', clientId: client.id }, input: { email: 'casey@client.example', name: 'Casey' }, signInBase: config.portalUrl });
  const signIn = await app.fetch(new Request(`${ORIGIN}${new URL(invited.sign_in_url).pathname}`, { method: 'POST', headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' }, body: '' }));
  cookie = signIn.headers.get('set-cookie')?.split(';')[0] ?? '';
  if (signIn.status !== 303 || !cookie) throw new Error(`sign-in answered ${signIn.status}`);
  console.log(`seeded ${LEADS} leads (+ thread rows, notes) for one client in ${fmt((performance.now() - t0) / 1000)} s; ${adapters.label}; ${new Date().toISOString()}`);

  // The JSON list at the deep page's depth: follow the cursor (keyset) to the same position.
  let n = 0; // each JSON request from an address of its own: the per-address limit is counted, not hit
  let deepCursor: string | undefined;
  for (let p = 1; p < DEEP_PAGE; p++) {
    const res = await json(`/v1/crm/leads?limit=${PORTAL_PAGE_SIZE}${deepCursor ? `&cursor=${deepCursor}` : ''}`, ++n);
    const body = (await res.json()) as { next_cursor: string | null };
    if (res.status !== 200) throw new Error(`GET /v1/crm/leads answered ${res.status}: ${JSON.stringify(body)}`);
    if (!body.next_cursor) throw new Error(`the JSON list ended before page ${DEEP_PAGE}`);
    deepCursor = body.next_cursor;
  }

  // Each entry returns how many leads it showed; all run interleaved, round by round.
  const httpPage = (path: string) => async () => {
    const res = await page(path);
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return (text.match(/data-lead-id=/g) ?? []).length;
  };
  const httpJson = (path: string) => async () => {
    const res = await json(path, ++n);
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return (JSON.parse(text) as { leads: unknown[] }).leads.length;
  };
  // The verbs alone (no HTTP, session, auth or rendering) show where a page's time goes.
  const tenant = { orgId: org.id, clientId: client.id };
  const variants = [
    { name: 'portal page: GET /portal/leads (first page)', run: httpPage('/portal/leads') },
    { name: 'portal page: ?classification=warm', run: httpPage('/portal/leads?classification=warm') },
    { name: `portal page: ?page=${DEEP_PAGE} (deep)`, run: httpPage(`/portal/leads?page=${DEEP_PAGE}`) },
    { name: `JSON: GET /v1/crm/leads?limit=${PORTAL_PAGE_SIZE} (first page)`, run: httpJson(`/v1/crm/leads?limit=${PORTAL_PAGE_SIZE}`) },
    { name: `JSON: same, page ${DEEP_PAGE} by cursor (keyset)`, run: httpJson(`/v1/crm/leads?limit=${PORTAL_PAGE_SIZE}&cursor=${deepCursor}`) },
    { name: `verb alone: listPortalLeads, page ${DEEP_PAGE}`, run: async () => (await listPortalLeads(db, tenant, { page: DEEP_PAGE }, config.portalUrl)).leads.length },
    { name: `verb alone: its id query, page ${DEEP_PAGE}`, run: async () => (await portalPageIds(db, tenant, { page: DEEP_PAGE })).length - 1 },
    { name: 'verb alone: listCrmLeads, first page', run: async () => (await listCrmLeads({ db, tenant, input: { limit: PORTAL_PAGE_SIZE }, portalUrl: config.portalUrl })).leads.length },
  ];
  const JSON_FIRST = 3;
  const samples = variants.map(() => ({ ms: [] as number[], db: 0, rows: -1 }));
  for (let round = 0; round < WARMUP + REPEATS; round++) {
    for (const [i, v] of variants.entries()) {
      const db0 = services.dbStats.queries;
      const start = performance.now();
      const shown = await v.run();
      const ms = performance.now() - start;
      if (round < WARMUP) continue;
      samples[i].ms.push(ms);
      samples[i].db += services.dbStats.queries - db0;
      samples[i].rows = shown;
    }
  }
  for (const [i, s] of samples.entries()) if (s.rows !== PORTAL_PAGE_SIZE) failures.push(`${variants[i].name} showed ${s.rows} leads, expected ${PORTAL_PAGE_SIZE}`);

  const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
  const stats = samples.map((s) => ({ p50: pct(s.ms, 50), p99: pct(s.ms, 99), db: s.db / s.ms.length, rows: s.rows }));
  const base = stats[JSON_FIRST];
  console.log(`\nserver time per request in process, ${REPEATS} interleaved rounds after ${WARMUP} of warm-up, ${PORTAL_PAGE_SIZE} leads a page:\n`);
  console.log(
    table([
      ['request', 'leads', 'p50 ms', 'p99 ms', 'DB round trips/req', 'p50 / JSON first', 'p99 / JSON first'],
      ...variants.map((v, i) => [v.name, String(stats[i].rows), fmt(stats[i].p50), fmt(stats[i].p99), fmt(stats[i].db, 2), `${fmt(stats[i].p50 / base.p50, 2)}×`, `${fmt(stats[i].p99 / base.p99, 2)}×`]),
    ]),
  );
  // The pages people open (the first, a filter) against the JSON list's first page: the aim is at most 2×. The deep
  // page is OFFSET paging (page numbers a person can type) against the API's keyset cursor: shown, not judged; it
  // reads the rows before it, as any offset does.
  const worst = Math.max(...stats.slice(0, 2).map((s) => s.p50 / base.p50));
  console.log(`\nslowest first portal page / JSON first page (p50): ${fmt(worst, 2)}×  ${worst <= 2 ? 'PASS (≤ 2×)' : 'FAIL (> 2×)'}`);
  console.log(`deep portal page (offset) / JSON page at the same depth (cursor), p50: ${fmt(stats[2].p50 / stats[JSON_FIRST + 1].p50, 2)}×`);
  if (worst > 2) failures.push(`a first portal page costs ${fmt(worst, 2)}× the JSON list (aim 2×)`);

  // The portal's own list query (lib/portal/leads.ts) for the deep page, as the database runs it.
  const q = portalPageIds(db, { orgId: org.id, clientId: client.id }, { page: DEEP_PAGE }).toSQL();
  console.log(`\nplan of the portal's list query, page ${DEEP_PAGE}:`);
  for (const line of await explain(q)) console.log(`  ${line}`);
} finally {
  await services.close();
  await adapters.close();
  rmSync(dataDir, { recursive: true, force: true });
}

function page(path: string) {
  return app.fetch(new Request(`${ORIGIN}${path}`, { headers: { cookie } }));
}

function json(path: string, n: number) {
  return app.fetch(new Request(`${ORIGIN}${path}`, { headers: { 'x-service-key': crmKey, 'x-forwarded-for': `10.9.${(n >> 8) & 255}.${n & 255}` } }));
}

async function explain(q: { sql: string; params: unknown[] }): Promise<string[]> {
  const pool = (db as unknown as { $client: { query(text: string, params: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }> } }).$client;
  const out = (await pool.query(`explain (analyze, costs off, timing off, buffers off) ${q.sql}`, q.params)).rows;
  return out.map((r) => String(r['QUERY PLAN']));
}

if (failures.length > 0) {
  console.log(`\nFAIL:\n- ${failures.join('\n- ')}`);
  process.exitCode = 1;
} else {
  console.log('\nall checks passed');
}
