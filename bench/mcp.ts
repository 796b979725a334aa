// `npm run bench:mcp`: the agency tool server (/mcp) against the same operation through REST and a bare route, in
// one run on one app:
//  1. server time per call, in process (app.request: auth, limits, the transport guard, a new protocol server per
//     request, the tool list), interleaved so drift hits every operation alike: tools/list for a full agency key,
//     get_client through MCP tools/call, GET /v1/agency/clients/{id}, and a bare Hono route doing the same read;
//     plus tools/list through the tool server alone (ToolServer.handle without the platform's auth and limits);
//  2. throughput over HTTP (autocannon, 10 connections) of the same read as a bare route, REST and MCP, plus
//     tools/list, with DB and Redis round trips per request, in A B C D D C B A order;
//  3. the size of the tool list in tokens with a real tokenizer (js-tiktoken, o200k_base; cl100k_base beside it).
// Embedded PGlite and in-process limits by default; BENCH_POSTGRES_URL / BENCH_REDIS_URL switch to the production
// adapters as in bench/read_paths.ts. Prints ratios against the baselines of the same run, not absolute claims.
import { serve } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { getEncoding } from 'js-tiktoken';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { getClient } from '../lib/agency/clients/list_clients';
import { actorOf } from '../lib/agency/operation';
import { resolveApiKey } from '../lib/auth/keys';
import { listingFilter } from '../lib/mcp/tool_list';
import { loadConfig } from '../lib/config';
import { AGENCY_OPT_INS, createClient, createKey, createOrg } from '../lib/orgs/admin';
import { createNodeServices } from '../lib/runtime/node';
import { agencyToolServer } from '../functions/mcp/agency_server';
import { clients } from '../schema';
import { createNodeApp } from '../scripts/node_server';
import { benchAdapters } from './adapters';
import { fmt, load, table, type Load } from './lib';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CALLS = Number(process.env.BENCH_CALLS ?? 300);
const PROTOCOL = '2025-11-25';
/** The spec's full tool count (agency-operator.md §2), for the projection of the list's size. */
const SPEC_TOOLS = 93;

const dataDir = mkdtempSync(join(tmpdir(), 'ris-bench-mcp-'));
const real = await benchAdapters('mcp');
// TRUST_PROXY lets each request carry its own client address, so the per-IP limit is counted, not hit.
const config = loadConfig({ ...process.env, ...real.env, DATA_DIR: dataDir, LOG_LEVEL: 'error', PORT: '0', TRUST_PROXY: 'true' });
const services = await createNodeServices(config);
const db = services.db;

// An agency with every feature the tool list depends on, a few clients (the read one with a playbook), and many
// full agency keys (every opt-in), so the per-key limits (1,000/min each) are counted, not hit.
const org = await createOrg(db, { name: 'bench agency', features: { agency_tools: true, studio: true, crm: true } });
const clientIds: string[] = [];
for (let i = 0; i < 5; i++) clientIds.push((await createClient(db, org.id, { name: `Bench client ${i}` })).id);
const clientId = clientIds[0];
await db
  .update(clients)
  .set({
    playbook: {
      instructions: 'Answer within the day. Offer a 20 minute call; never discuss pricing by mail.',
      tone: 'friendly, brief',
      signature: 'Sam, Bench Agency',
      rules: ['never promise delivery dates', 'hand legal questions to a person', 'no attachments'],
    },
    playbookVersion: 1,
  } as never)
  .where(eq(clients.id, clientId));
const keys: string[] = [];
for (let i = 0; i < 60; i++) {
  keys.push((await createKey(db, org.id, { name: `bench agency key ${i}`, kind: 'agency', scopes: [...AGENCY_OPT_INS], rate_limit_per_minute: 1000 })).secret);
}

const app = createNodeApp(services);
const bare = new Hono();
bare.get('/bare/clients/:id', async (c) => c.json({ client: await getClient(db, org.id, c.req.param('id')) }));

let n = 0;
const headers = () => {
  n++;
  return { 'x-service-key': keys[n % keys.length], 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` };
};
const mcpHeaders = () => ({ ...headers(), 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': PROTOCOL });
const rpc = (method: string, params: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
const LIST_BODY = rpc('tools/list', {});
const CALL_BODY = rpc('tools/call', { name: 'get_client', arguments: { client_id: clientId } });

type Op = { name: string; run: () => Response | Promise<Response>; check: (body: any) => boolean };
const inProcess: Op[] = [
  { name: 'tools/list through MCP', run: () => app.request('/mcp', { method: 'POST', headers: mcpHeaders(), body: LIST_BODY }), check: (b) => Array.isArray(b?.result?.tools) && b.result.tools.length > 0 },
  {
    name: 'get_client through MCP tools/call',
    run: () => app.request('/mcp', { method: 'POST', headers: mcpHeaders(), body: CALL_BODY }),
    check: (b) => b?.result?.isError !== true && b?.result?.structuredContent?.client?.id === clientId,
  },
  { name: 'GET /v1/agency/clients/{id} (REST)', run: () => app.request(`/v1/agency/clients/${clientId}`, { headers: headers() }), check: (b) => b?.client?.id === clientId },
  { name: 'bare Hono route, same read', run: () => bare.request(`/bare/clients/${clientId}`), check: (b) => b?.client?.id === clientId },
];
// The tool server alone: the same tools/list answer without the platform (no request id, auth, limits, guard).
const resolved = await resolveApiKey(db, services.keyCache, keys[0], Date.now());
if (!resolved) throw new Error('the bench key does not resolve');
const toolServerOnly = (): Promise<Response> => {
  const call = { services, auth: resolved.auth, via: 'mcp' as const, actor: actorOf(resolved.auth, 'mcp'), now: new Date(), requestId: 'bench' };
  const req = new Request('http://127.0.0.1/mcp', { method: 'POST', headers: mcpHeaders(), body: LIST_BODY });
  return agencyToolServer.handle(req, LIST_BODY, { call, filter: listingFilter(undefined, undefined), log: services.log, path: '/mcp' });
};
inProcess.push({ name: 'tools/list, tool server alone', run: toolServerOnly, check: inProcess[0].check });

let broken = 0;
/** One call's answer checked: 200 and the expected JSON. */
async function checked(op: Op) {
  const res = await op.run();
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // reported below
  }
  if (res.status !== 200 || !op.check(body)) {
    broken++;
    console.error(`${op.name}: unexpected answer ${res.status} ${text.slice(0, 300)}`);
  }
  return body;
}

// Every key once (the key cache is warm, as for steady-state callers), then the answers checked.
for (let i = 0; i < keys.length; i++) await app.request(`/v1/agency/clients/${clientId}`, { headers: headers() });
const listed = (await checked(inProcess[0])) as { result: { tools: Record<string, any>[] } };
for (const op of inProcess.slice(1)) await checked(op);
const tools = listed.result.tools;

// 1. Server time in process, interleaved.
const times = new Map<string, number[]>(inProcess.map((op) => [op.name, []]));
for (let i = 0; i < 30; i++) for (const op of inProcess) await (await op.run()).text(); // warm-up
for (let i = 0; i < CALLS; i++) {
  for (const op of inProcess) {
    const t0 = performance.now();
    const res = await op.run();
    await res.text();
    times.get(op.name)!.push(performance.now() - t0);
    if (res.status !== 200) broken++;
  }
}
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const median = (name: string) => quantile(times.get(name)!, 0.5);
const restMedian = median(inProcess[2].name);
const timeRows = [['operation', 'median ms', 'p95 ms', 'p99 ms', 'median / REST read']];
for (const op of inProcess) {
  const xs = times.get(op.name)!;
  timeRows.push([op.name, fmt(quantile(xs, 0.5), 2), fmt(quantile(xs, 0.95), 2), fmt(quantile(xs, 0.99), 2), `${fmt(quantile(xs, 0.5) / restMedian, 2)}x`]);
}

// 2. Throughput over HTTP. Both servers count the requests they answer, so round trips per request are exact.
const served = { n: 0 };
const counting = (fetch: (r: Request) => Response | Promise<Response>) => async (r: Request) => {
  const res = await fetch(r);
  served.n++;
  return res;
};
const listen = (fetch: (r: Request) => Response | Promise<Response>) =>
  new Promise<{ port: number; close(): void }>((resolve) => {
    const s = serve({ fetch: counting(fetch), hostname: '127.0.0.1', port: 0 }, (info) => resolve({ port: info.port, close: () => s.close() }));
  });
const server = await listen((r) => app.fetch(r));
const bareServer = await listen((r) => bare.fetch(r));
const full = `http://127.0.0.1:${server.port}`;

// Over the socket too, one checked answer each before the load.
for (const [url, init, check] of [
  [`${full}/mcp`, { method: 'POST', headers: mcpHeaders(), body: CALL_BODY }, inProcess[1].check],
  [`${full}/mcp`, { method: 'POST', headers: mcpHeaders(), body: LIST_BODY }, inProcess[0].check],
  [`${full}/v1/agency/clients/${clientId}`, { headers: headers() }, inProcess[2].check],
  [`http://127.0.0.1:${bareServer.port}/bare/clients/${clientId}`, {}, inProcess[3].check],
] as const) {
  const res = await fetch(url, init as RequestInit);
  const body = await res.json().catch(() => null);
  if (res.status !== 200 || !check(body)) {
    broken++;
    console.error(`${url}: unexpected answer ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  }
}

type Variant = { name: string; url: string; opts: Parameters<typeof load>[1] };
const variants: Variant[] = [
  { name: 'bare route (same read)', url: `http://127.0.0.1:${bareServer.port}/bare/clients/${clientId}`, opts: {} },
  { name: 'REST GET /v1/agency/clients/{id}', url: `${full}/v1/agency/clients/${clientId}`, opts: { headers } },
  { name: 'MCP tools/call get_client', url: `${full}/mcp`, opts: { headers: mcpHeaders, method: 'POST', body: CALL_BODY } },
  { name: `MCP tools/list (${tools.length} tools)`, url: `${full}/mcp`, opts: { headers: mcpHeaders, method: 'POST', body: LIST_BODY } },
];

async function measure(v: Variant) {
  const before = services.dbStats.queries;
  const redisBefore = await real.redisRequests();
  const answered = served.n;
  const r: Load = await load(v.url, { ...v.opts, seconds: SECONDS / 2 });
  await new Promise((done) => setTimeout(done, 300)); // let in-flight requests finish
  const redis = (await real.redisRequests()) - redisBefore;
  return { ...r, queries: services.dbStats.queries - before, redis, answered: served.n - answered };
}
type Measured = Awaited<ReturnType<typeof measure>>;

for (const v of variants) await load(v.url, { ...v.opts, seconds: 2 }); // warm-up: every path compiled hot before it is measured
// A B C D D C B A: each variant runs once early and once late, so drift on a shared machine hits all alike.
const firsts: Measured[] = [];
for (const v of variants) firsts.push(await measure(v));
const seconds: Measured[] = [];
for (const v of [...variants].reverse()) seconds.unshift(await measure(v));
const results = variants.map((v, i) => {
  const a = firsts[i];
  const b = seconds[i];
  const answered = a.answered + b.answered;
  return {
    name: v.name,
    rps: (a.rps + b.rps) / 2,
    p50: (a.p50 + b.p50) / 2,
    p99: Math.max(a.p99, b.p99),
    non2xx: a.non2xx + b.non2xx + a.errors + b.errors,
    roundTrips: (a.queries + b.queries) / answered,
    redisTrips: (a.redis + b.redis) / answered,
  };
});
const loadRows = [['variant', 'req/s', 'p50 ms', 'p99 ms', 'DB round trips/req', 'Redis round trips/req', 'non-2xx']];
for (const r of results) loadRows.push([r.name, fmt(r.rps), fmt(r.p50), fmt(r.p99), fmt(r.roundTrips, 2), fmt(r.redisTrips, 2), String(r.non2xx)]);
const [bareR, restR, mcpR, listR] = results;

// 3. The tool list in tokens: what tools/list sends (all fields), and what a client typically puts in the model's
// context (name, description, input schema).
const o200k = getEncoding('o200k_base');
const cl100k = getEncoding('cl100k_base');
const count = (value: unknown) => ({ o200k: o200k.encode(JSON.stringify(value)).length, cl100k: cl100k.encode(JSON.stringify(value)).length });
const whole = count(tools);
const modelFacing = count(tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema })));
const parts = {
  'names, descriptions': count(tools.map((t) => [t.name, t.description])),
  inputSchema: count(tools.map((t) => t.inputSchema)),
  outputSchema: count(tools.map((t) => t.outputSchema)),
  annotations: count(tools.map((t) => t.annotations)),
};
const perTool = tools.map((t) => ({ name: t.name, tokens: o200k.encode(JSON.stringify(t)).length })).sort((a, b) => b.tokens - a.tokens);
const init = (await (await app.request('/mcp', { method: 'POST', headers: mcpHeaders(), body: rpc('initialize', { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'bench', version: '1' } }) })).json()) as {
  result: { instructions?: string };
};
const instructionTokens = o200k.encode(init.result.instructions ?? '').length;
const projected = (tokens: number) => Math.round((tokens / tools.length) * SPEC_TOOLS);

console.log(`\nMCP tool server, full agency key (${tools.length} tools listed), ${CALLS} in-process calls per operation, ${SECONDS} s per load run, 10 connections, ${real.label}, ${new Date().toISOString()}\n`);
console.log('server time per call in process (app.request: auth, limits, guard, protocol server, the answer read; interleaved):\n');
console.log(table(timeRows));
console.log('\nthroughput over HTTP (get_client: the same read three ways; tools/list beside it):\n');
console.log(table(loadRows));
const tokenRows = [['what', 'o200k_base tokens', 'cl100k_base tokens', 'per tool (o200k)', `projected to ${SPEC_TOOLS} tools (o200k)`]];
tokenRows.push(['tools/list result, every field', String(whole.o200k), String(whole.cl100k), fmt(whole.o200k / tools.length, 0), String(projected(whole.o200k))]);
tokenRows.push(['model-facing: name, description, inputSchema', String(modelFacing.o200k), String(modelFacing.cl100k), fmt(modelFacing.o200k / tools.length, 0), String(projected(modelFacing.o200k))]);
for (const [what, c] of Object.entries(parts)) tokenRows.push([`  of which ${what}`, String(c.o200k), String(c.cl100k), fmt(c.o200k / tools.length, 0), String(projected(c.o200k))]);
console.log(`\ntool list size (js-tiktoken; JSON as sent, compact; the projection is linear in the tool count):\n`);
console.log(table(tokenRows));
console.log(`  server instructions (initialize): ${instructionTokens} tokens (o200k_base)`);
console.log(`  largest tools (o200k_base, every field): ${perTool.slice(0, 3).map((t) => `${t.name} ${t.tokens}`).join(', ')}; smallest: ${perTool.at(-1)?.name} ${perTool.at(-1)?.tokens}`);

const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
const listMs = median(inProcess[0].name);
console.log('\nratios and goals:');
console.log(`  MCP read / REST read throughput      ${fmt(mcpR.rps / restR.rps, 2)}x   (goal ≥ 0.7: ${met(mcpR.rps / restR.rps >= 0.7)})`);
console.log(`  MCP read / bare route throughput     ${fmt(mcpR.rps / bareR.rps, 2)}x`);
console.log(`  REST read / bare route throughput    ${fmt(restR.rps / bareR.rps, 2)}x`);
console.log(`  tools/list / REST read throughput    ${fmt(listR.rps / restR.rps, 2)}x`);
console.log(`  MCP read / REST read server time     ${fmt(median(inProcess[1].name) / restMedian, 2)}x (medians in process)`);
console.log(`  tools/list server time               ${fmt(listMs, 2)} ms median, ${fmt(listMs / restMedian, 2)}x the REST read   (goal ≤ 5 ms: ${met(listMs <= 5)})`);
console.log(`  tools/list in the tool server alone  ${fmt(median(inProcess[4].name), 2)} ms median (without the platform's auth and limits)`);
console.log(`  tool list tokens, ${SPEC_TOOLS} tools projected  ${projected(whole.o200k)} every field, ${projected(modelFacing.o200k)} model-facing (goal ≤ 25000: ${met(projected(whole.o200k) <= 25_000)})`);
if (broken) console.log(`\n${broken} unexpected answers (see stderr)`);

server.close();
bareServer.close();
await services.close();
await real.close();
rmSync(dataDir, { recursive: true, force: true });
process.exit(broken || results.some((r) => r.non2xx > 0) ? 1 : 0);
